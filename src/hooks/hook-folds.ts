// How the outcomes of one event's hooks fold into one answer, for the events that share a fold:
// Stop and SubagentStop (continue with a reason), and the events whose hooks may refuse or add
// text (UserPromptSubmit, PreCompact, PostToolUseFailure).
import type { HookOutcome } from "./hook-output.js";
import type { StopResult } from "./hook-types.js";

/**
 * Claude Code's `continue: false`, which any hook may answer: the run stops after the hooks, with
 * `stopReason` shown to the user (not the model). The first such hook's reason; undefined when none said it.
 */
export function continuationStop(outcomes: readonly HookOutcome[], event: string): string | undefined {
  for (const outcome of outcomes) {
    if (outcome.kind === "success" && outcome.json?.continue === false) {
      return outcome.json.stopReason ?? `a ${event} hook stopped the run`;
    }
  }
  return undefined;
}

/**
 * Stop and SubagentStop: exit 2 or `decision: "block"` continues with the reason; a failure is
 * reported. A hook's `continue: false` wins over every block, as in Claude Code: the run stops.
 */
export function foldStopOutcomes(outcomes: readonly HookOutcome[], defaultReason: string): StopResult {
  const result: StopResult = { errors: [] };
  const reasons: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") result.errors.push(outcome.message);
    else if (outcome.kind === "blocking") reasons.push(outcome.message);
    else if (outcome.json?.decision === "block") reasons.push(outcome.json.reason ?? defaultReason);
  }
  if (reasons.length && continuationStop(outcomes, "Stop") === undefined) result.continueWith = reasons.join("\n");
  return result;
}

/**
 * The fold shared by the events whose hooks may refuse or add text (UserPromptSubmit, PreCompact):
 * exit code 2, `decision: "block"` or `continue: false` refuses; additionalContext or the plain
 * stdout of a successful hook is added; a hook that fails is reported and refuses nothing.
 */
export function foldContextOutcomes(
  outcomes: readonly HookOutcome[],
  defaultBlockReason: string,
): { context: string[]; errors: string[]; blocked?: string } {
  const context: string[] = [];
  const errors: string[] = [];
  const blocks: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "failed") errors.push(outcome.message);
    else if (outcome.kind === "blocking") blocks.push(outcome.message);
    else if (outcome.json) {
      if (outcome.json.decision === "block" || outcome.json.continue === false) {
        blocks.push(outcome.json.reason ?? outcome.json.stopReason ?? defaultBlockReason);
      }
      const added = outcome.json.hookSpecificOutput?.additionalContext;
      if (added) context.push(added);
    } else if (outcome.text) {
      context.push(outcome.text);
    }
  }
  return blocks.length > 0 ? { context, errors, blocked: blocks.join("\n") } : { context, errors };
}

/**
 * The watchPaths the hooks of one event gave (SessionStart, CwdChanged, FileChanged), together;
 * undefined when none said any (the files watched so far stay).
 */
export function watchPathsOf(outcomes: readonly HookOutcome[]): string[] | undefined {
  let paths: string[] | undefined;
  for (const outcome of outcomes) {
    const given = outcome.kind === "success" ? outcome.json?.hookSpecificOutput?.watchPaths : undefined;
    if (given) paths = [...(paths ?? []), ...given];
  }
  return paths;
}
