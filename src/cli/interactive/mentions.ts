// `@path` in a prompt typed in the UI attaches the file: the session calls the Read tool for it,
// through the permission engine (a deny rule keeps it out, a file outside the working folders is
// asked about), and the call and its result go to the model ahead of the prompt, in the
// transcript as every message is. The Read shares the session's file-read memory, so the model may
// edit an attached file at once. What cannot be attached (no such file, a folder, a binary or too
// large file, a refusal) is said to the person, and to the model in one line so it knows.
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { userHome } from "../../config/paths.js";
import type { SessionCommands } from "../../control/session-commands.js";
import type { SessionEngine } from "../../loop/session.js";
import { type ToolUseBlock, toolResultText, type UserContentBlock, type UserMessage } from "../../messages/types.js";
import { runToolUse } from "../../orchestration/run-tool-use.js";
import type { CanUseTool } from "../../tool/types.js";
import { ATTACHED_PREFIX, mentionTokens, NOT_ATTACHED_PREFIX } from "../../ui/input/file-mentions.js";
import type { MentionOutcome } from "../../ui/run.js";

/** Trailing punctuation a sentence puts after a mention (`see @a.ts, then`): tried without it. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

export async function attachMentions(
  prompt: string,
  session: SessionEngine,
  commands: Pick<SessionCommands, "queueMessage">,
  canUseTool: CanUseTool,
  signal: AbortSignal,
): Promise<MentionOutcome[]> {
  const outcomes: MentionOutcome[] = [];
  const cwd = session.getAppState().worktree?.path ?? session.cwd;
  for (const token of mentionTokens(prompt)) {
    if (signal.aborted) break;
    const found = locate(token, cwd);
    if (found.kind === "none") {
      // `@someone` or `@latest` is prose, not a path: only what looks like a path is reported missing.
      if (/[/.~]/.test(token)) outcomes.push({ mention: token, problem: "no such file" });
      continue;
    }
    if (found.kind === "folder") {
      outcomes.push({ mention: found.token, problem: "a folder (mention the files in it)" });
      continue;
    }
    const toolUse: ToolUseBlock = {
      type: "tool_use",
      id: `toolu_mention_${randomUUID()}`,
      name: "Read",
      input: { file_path: found.path },
    };
    const abortController = new AbortController();
    const stop = () => abortController.abort("user");
    signal.addEventListener("abort", stop, { once: true });
    try {
      const { result } = await runToolUse(toolUse, session.toolUseContext(abortController), canUseTool, undefined);
      outcomes.push({ mention: found.token, read: { toolUse, result } });
    } finally {
      signal.removeEventListener("abort", stop);
    }
  }
  const message = mentionMessage(outcomes);
  // Esc stopped the prompt: nothing of it goes to the model.
  if (message && !signal.aborted) {
    // Taken into the conversation when the prompt starts (or the running one's next request), before it.
    commands.queueMessage(message);
  }
  return outcomes;
}

type Located = { kind: "file" | "folder"; path: string; token: string } | { kind: "none" };

function locate(token: string, cwd: string): Located {
  const candidates = [token];
  const trimmed = token.replace(TRAILING_PUNCTUATION, "");
  if (trimmed && trimmed !== token) candidates.push(trimmed);
  for (const candidate of candidates) {
    const expanded = candidate.startsWith("~/") ? `${userHome()}${candidate.slice(1)}` : candidate;
    const path = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isFile()) return { kind: "file", path, token: candidate };
    if (stats?.isDirectory()) return { kind: "folder", path, token: candidate };
  }
  return { kind: "none" };
}

/** One user message: each attached file as its Read call and result, and a line for each that was not. */
function mentionMessage(outcomes: readonly MentionOutcome[]): UserMessage | undefined {
  const content: UserContentBlock[] = [];
  for (const outcome of outcomes) {
    const { read } = outcome;
    if (read && !read.result.is_error) {
      content.push({
        type: "text",
        text: `${ATTACHED_PREFIX}${outcome.mention}: the Read tool was called with ${JSON.stringify(read.toolUse.input)} and returned:`,
      });
      if (typeof read.result.content === "string") content.push({ type: "text", text: read.result.content });
      else content.push(...read.result.content);
    } else {
      const reason = read ? toolResultText(read.result.content) : (outcome.problem ?? "unknown");
      content.push({
        type: "text",
        text: `${NOT_ATTACHED_PREFIX}${outcome.mention}, which was not attached: ${reason}`,
      });
    }
  }
  return content.length > 0 ? { role: "user", content } : undefined;
}
