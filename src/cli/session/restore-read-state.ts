// A resumed conversation still shows the model the files it read, wrote and edited, so the session
// remembers them as read: an Edit after --resume / --continue / /resume is not refused as "not read
// yet" for a file whose contents are right there in the context. Only a file that has not changed
// since its call's result was recorded counts; one changed after (by the person, a linter, a Bash
// command later in the session) must be read again, as in the session that made the call.
import { statSync } from "node:fs";
import type { Message } from "../../messages/types.js";
import type { FileReadRecord } from "../../tool/read-file-state.js";
import { EDIT_TOOL_NAME } from "../../tools/edit/prompt.js";
import { currentText } from "../../tools/file-shared/freshness.js";
import { resolveToolPath } from "../../tools/file-shared/paths.js";
import { READ_TOOL_NAME } from "../../tools/read/prompt.js";
import { WRITE_TOOL_NAME } from "../../tools/write/prompt.js";

/** Files larger than this are left out: Read refuses to show them whole anyway. */
const MAX_RESTORED_BYTES = 10 * 1024 * 1024;

export interface RestoredRead {
  path: string;
  record: FileReadRecord;
}

/**
 * The files the conversation's successful Read, Write and Edit calls showed the model, each as a
 * read record of its current contents, latest call last; `resultTimes` says when each call's result
 * was recorded (by tool_use id), and a call without a time is left out.
 */
export function restoredReads(
  messages: readonly Message[],
  resultTimes: ReadonlyMap<string, number>,
  cwd: string,
): RestoredRead[] {
  const calls = new Map<string, { name: string; input: Record<string, unknown> }>();
  const seen = new Map<string, { at: number; offset?: number; limit?: number }>();
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === "tool_use")
        calls.set(block.id, { name: block.name, input: block.input as Record<string, unknown> });
      if (block.type !== "tool_result" || block.is_error) continue;
      const call = calls.get(block.tool_use_id);
      const at = resultTimes.get(block.tool_use_id);
      if (!call || at === undefined) continue;
      if (![READ_TOOL_NAME, WRITE_TOOL_NAME, EDIT_TOOL_NAME].includes(call.name)) continue;
      const filePath = call.input.file_path;
      if (typeof filePath !== "string") continue;
      const resolved = resolveToolPath(filePath, cwd);
      if (!resolved.ok) continue;
      seen.delete(resolved.path);
      // A Read of part of a file is remembered as that part (Read's own record), a write as whole.
      const part =
        call.name === READ_TOOL_NAME
          ? { offset: numberOr(call.input.offset, 1), limit: numberOr(call.input.limit, undefined) }
          : {};
      seen.set(resolved.path, { at, ...part });
    }
  }
  const restored: RestoredRead[] = [];
  for (const [path, { at, offset, limit }] of seen) {
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(path);
    } catch {
      continue;
    }
    if (!stats.isFile() || stats.size > MAX_RESTORED_BYTES || Math.floor(stats.mtimeMs) > at) continue;
    const content = currentText(path);
    if (content === "\0unreadable") continue;
    const record: FileReadRecord = { content, timestamp: stats.mtimeMs };
    if (offset !== undefined) record.offset = offset;
    if (limit !== undefined) record.limit = limit;
    restored.push({ path, record });
  }
  return restored;
}

function numberOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
