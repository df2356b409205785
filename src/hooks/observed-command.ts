// One command hook the event waits for, told to the embedding program's observer as it starts,
// writes output and ends (--include-hook-events), then read as a hook's answer.
import { randomUUID } from "node:crypto";
import type { HookCommandConfig, HookEventName } from "../config/settings-schema.js";
import { type HookOutcome, interpretHookResult } from "./hook-output.js";
import type { HookLifecycleEvent } from "./hook-types.js";
import { runHookCommand } from "./run-command.js";

export async function runObservedCommand(
  hook: HookCommandConfig,
  input: Record<string, unknown>,
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    signal: AbortSignal | undefined;
    observer: ((event: HookLifecycleEvent) => void) | undefined;
    hookName: string;
    event: HookEventName;
  },
): Promise<HookOutcome> {
  const { observer, signal, timeoutMs } = options;
  const observed = observer && { hookId: randomUUID(), hookName: options.hookName, event: options.event };
  if (observed) observer?.({ kind: "started", ...observed });
  const result = await runHookCommand(hook.command, input, {
    cwd: options.cwd,
    timeoutMs,
    env: options.env,
    signal,
    ...(observed && {
      onOutput: (stdout: string, stderr: string) => observer?.({ kind: "progress", ...observed, stdout, stderr }),
    }),
  });
  if (observed) {
    const failed = result.timedOut || result.spawnError !== undefined || result.exitCode !== 0;
    observer?.({
      kind: "response",
      ...observed,
      stdout: result.stdout,
      stderr: result.spawnError ?? result.stderr,
      exitCode: result.exitCode,
      outcome: signal?.aborted ? "cancelled" : failed ? "error" : "success",
    });
  }
  return interpretHookResult(hook.command, result, timeoutMs);
}
