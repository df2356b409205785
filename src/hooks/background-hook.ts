// One async (or asyncRewake) command hook, run in the background: the event goes on without it
// and it cannot block anything. What it says when it ends (additionalContext, systemMessage, or
// its failure) is for the session's next turn; an asyncRewake hook's exit code 2 wakes the model.
import type { HookCommandConfig } from "../config/settings-schema.js";
import { type HookRewake, rewakeOf } from "./async-rewake.js";
import { interpretHookResult } from "./hook-output.js";
import { runHookCommand } from "./run-command.js";

export async function runBackgroundHook(
  hook: HookCommandConfig,
  input: Record<string, unknown>,
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    onOutput: (texts: string[], errors: string[]) => void;
    onRewake: (rewake: HookRewake) => void;
  },
): Promise<void> {
  const { cwd, env, timeoutMs } = options;
  const result = await runHookCommand(hook.command, input, { cwd, timeoutMs, env });
  const outcome = interpretHookResult(hook.command, result, timeoutMs);
  if (hook.asyncRewake && outcome.kind === "blocking") {
    options.onRewake(rewakeOf(hook, outcome.message, result.stdout));
    return;
  }
  const texts: string[] = [];
  const errors: string[] = [];
  if (outcome.kind === "failed") errors.push(outcome.message);
  else if (outcome.kind === "success" && outcome.json) {
    const context = outcome.json.hookSpecificOutput?.additionalContext;
    if (context) texts.push(context);
    if (outcome.json.systemMessage) texts.push(outcome.json.systemMessage);
  }
  if (texts.length > 0 || errors.length > 0) options.onOutput(texts, errors);
}
