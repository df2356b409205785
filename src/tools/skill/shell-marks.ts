// `!`command`` in a custom command's or skill's text (Claude Code's syntax): the command runs when
// the person invokes it, and its output takes the place of the `!`...`` in what the model reads.
// Each one is a Bash call through the session's real path (orchestration's runToolUse): PreToolUse
// hooks, the Bash analysis and the permission engine with the session's rules, to which the
// command's own `allowed-tools` were added for this prompt (skills-setup.ts expandPrompt), so deny
// rules still win and protected paths still ask. A call that would ask is asked the usual way
// (the UI's dialog); a session that cannot ask refuses it, and the text says so in its place.
// It runs in the session's working folder, with the Bash tool's timeout and output limits.
// Before each line the PreSkillShellCommand hooks are asked; one that refuses keeps the line from
// running, and its reason stands in the line's place.
// Used when a person types `/name` (cli/session) and when the model loads an inline skill (./tool.ts).
import { randomUUID } from "node:crypto";
import { type ToolUseBlock, toolResultText } from "../../messages/types.js";
import { runToolUse } from "../../orchestration/run-tool-use.js";
import type { SkillShellCommand } from "../../tool/tool-call-hooks.js";
import type { CanUseTool, ToolUseContext } from "../../tool/types.js";

/**
 * `!`cmd`` at the start of a line or after a space (so `foo!`x`` in prose is left alone), the
 * command on one line and not empty.
 */
const SHELL_MARK = /(^|[ \t])!`([^`\n]+)`/gm;

/** Whether a command's text holds any `!`command`` to run. */
export function hasShellCommands(text: string): boolean {
  SHELL_MARK.lastIndex = 0;
  const found = SHELL_MARK.test(text);
  SHELL_MARK.lastIndex = 0;
  return found;
}

/** Each `!`cmd`` replaced, in order, by what `run` makes of the command. */
export async function replaceShellCommands(text: string, run: (command: string) => Promise<string>): Promise<string> {
  const marks = [...text.matchAll(SHELL_MARK)];
  let result = "";
  let from = 0;
  for (const mark of marks) {
    const lead = mark[1] ?? "";
    const command = (mark[2] ?? "").trim();
    const start = (mark.index ?? 0) + lead.length;
    result += text.slice(from, start);
    result += command === "" ? (mark[0] ?? "").slice(lead.length) : await run(command);
    from = start + (mark[0] ?? "").length - lead.length;
  }
  return result + text.slice(from);
}

export interface ShellRunOptions {
  /** A tool-call context of the session for one call (SessionEngine.toolUseContext). */
  contextFor: (abortController: AbortController) => ToolUseContext;
  canUseTool: CanUseTool;
  /** Stops a command that is running and skips the rest (the person pressed Esc). */
  signal?: AbortSignal;
  /** Whose text holds the lines, and who loaded it (what PreSkillShellCommand hooks are told). */
  origin: Pick<SkillShellCommand, "commandName" | "invokedBy">;
}

/** The command's text with every `!`cmd`` run through the session's Bash path (see the top). */
export async function runCommandShell(text: string, options: ShellRunOptions): Promise<string> {
  if (!hasShellCommands(text)) return text;
  return replaceShellCommands(text, (command) => runOne(command, options));
}

async function runOne(command: string, options: ShellRunOptions): Promise<string> {
  if (options.signal?.aborted) return notRun(command, "the prompt was interrupted");
  const abortController = new AbortController();
  const stop = () => abortController.abort("user");
  options.signal?.addEventListener("abort", stop, { once: true });
  const toolUse: ToolUseBlock = {
    type: "tool_use",
    id: `toolu_command_shell_${randomUUID()}`,
    name: "Bash",
    input: { command },
  };
  try {
    const context = options.contextFor(abortController);
    const hooks = context.getAppState().hooks;
    if (hooks?.has("PreSkillShellCommand")) {
      const { denied } = await hooks.preSkillShellCommand(
        { command, id: toolUse.id, ...options.origin },
        abortController.signal,
      );
      if (denied !== undefined) return notRun(command, `a PreSkillShellCommand hook refused it: ${denied}`);
    }
    const outcome = await runToolUse(toolUse, context, options.canUseTool, undefined);
    if (outcome.denial) return notRun(command, refusal(toolResultText(outcome.result.content)));
    if (!outcome.tool) return notRun(command, toolResultText(outcome.result.content));
    const output = bashOutputOf(outcome.output);
    // Not a finished foreground command (bad input, a hook's block, moved to the background):
    // the result as the Bash tool words it.
    if (!output || output.backgroundTaskId) return toolResultText(outcome.result.content).trimEnd();
    const notes = [
      output.timedOut ? `[timed out after ${(output.timeoutMs ?? 0) / 1000} s]` : "",
      output.interrupted ? "[interrupted]" : "",
      output.exitCode !== null && output.exitCode !== 0 ? `[exit code ${output.exitCode}]` : "",
    ].filter(Boolean);
    return [output.output.trimEnd(), ...notes].filter(Boolean).join("\n");
  } finally {
    options.signal?.removeEventListener("abort", stop);
  }
}

/** What of a Bash result this needs (tools/bash/result-text.ts BashOutput), checked, not assumed. */
interface FinishedBash {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  timeoutMs?: number;
  interrupted: boolean;
  backgroundTaskId?: string;
}

function bashOutputOf(value: unknown): FinishedBash | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const candidate = value as Partial<FinishedBash>;
  return typeof candidate.output === "string" ? (candidate as FinishedBash) : undefined;
}

/** The refusal's own first lines (what was refused and why), without its advice to the model. */
function refusal(message: string): string {
  const lines = message.split("\n").filter((line) => line.trim() !== "");
  const kept = lines.filter((line) => !/^(Do not retry|To allow)/.test(line)).slice(0, 2);
  return kept.join(" ") || "the permission check refused it";
}

/** The two session commands a typed command's marks run through (SessionEngine has both). */
export interface PromptMarkSession {
  runBeforePrompt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  toolUseContext(abortController: AbortController): ToolUseContext;
}

/**
 * A typed command's marks, run before its prompt is sent, as every front end runs them: inside the
 * session's runBeforePrompt, so its interrupt (Esc, SIGINT) stops the one running and skips the rest.
 */
export async function runPromptMarks(
  text: string,
  session: PromptMarkSession,
  canUseTool: CanUseTool,
  /** The typed prompt (`/name args`): its name is the command's. */
  prompt: string,
): Promise<{ text: string; interrupted: boolean }> {
  const commandName = (prompt.trim().split(/\s/, 1)[0] ?? "").replace(/^\//, "");
  return session.runBeforePrompt(async (signal) => ({
    text: await runCommandShell(text, {
      contextFor: (abortController) => session.toolUseContext(abortController),
      canUseTool,
      signal,
      origin: { commandName, invokedBy: "user" },
    }),
    interrupted: signal.aborted,
  }));
}

/** What the person is told when an interrupt stopped a command's marks: the prompt was kept back. */
export function shellInterruptedNotice(prompt: string): string {
  const name = prompt.trim().split(/\s/, 1)[0] ?? prompt;
  return `interrupted while ${name} ran its !\`command\` lines: the command running was stopped (its process group killed), the rest were not run, and the prompt was not sent`;
}

function notRun(command: string, why: string): string {
  return `[warden did not run \`${command}\`: ${why.trim().replace(/\s+/g, " ")}]`;
}
