// What an asyncRewake hook that exited with code 2 wakes the model with: its stderr after the
// hook's `rewakeMessage`, and a one-line notice for the person (`rewakeSummary`, which the hook
// may override per run in the first JSON line of its stdout, as Claude Code reads it).
import type { HookCommandConfig } from "../config/settings-schema.js";

export interface HookRewake {
  /** For the model: the reason it was woken. */
  message: string;
  /** For the person: one line saying why a turn started. */
  summary: string;
}

export function rewakeOf(hook: HookCommandConfig, stderr: string, stdout: string): HookRewake {
  const message = hook.rewakeMessage ? `${hook.rewakeMessage}\n\n${stderr}` : stderr;
  return { message, summary: summaryFromStdout(stdout) ?? hook.rewakeSummary ?? "A background hook found something" };
}

function summaryFromStdout(stdout: string): string | undefined {
  const line = stdout.split("\n").find((l) => l.trimStart().startsWith("{"));
  if (!line) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const summary = (parsed as { rewakeSummary?: unknown }).rewakeSummary;
    return typeof summary === "string" && summary.trim() ? summary.trim() : undefined;
  } catch {
    return undefined;
  }
}
