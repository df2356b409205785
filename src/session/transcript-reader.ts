// Reading transcripts back: `--resume <id>` and `--continue` (the latest session of this cwd).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { projectDataDir, transcriptPath } from "../config/paths.js";
import type { Message, ToolResultBlock, ToolUseBlock, UserMessage } from "../messages/types.js";
import { TASK_LIST_FAMILIES, TASK_LIST_STATUSES, type TaskListItem, type TaskListSnapshot } from "../tool/task-list.js";
import { messageFromLine } from "./transcript-lines.js";

export interface LoadedTranscript {
  sessionId: string;
  path: string;
  messages: Message[];
  /** `provider:model` from the header, when there is one. */
  model?: string;
  /** The task list as the last `todo` entry recorded it (see task-store.ts restoredTaskListState). */
  taskList?: TaskListSnapshot;
  /** Lines that could not be read (torn last line of a killed process, damaged lines). */
  warnings: string[];
  /** Set when the conversation was compacted: deferred tools loaded before the last boundary. */
  loadedDeferredTools?: string[];
  /** When each tool result of the conversation was recorded (ms since the epoch), by tool_use id. */
  toolResultTimes: Map<string, number>;
}

/** Session ids are file names: anything else could walk out of the transcript folder. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id) && !id.includes("..");
}

/**
 * The result a resumed session gives a call that never got one. The process died during the call
 * (killed, crashed, a machine lost), so the call may have done part of its work: a command that
 * wrote files or talked to a server may have had effects. The model is told which call it was and
 * that it may have run partly, so it checks before repeating something that is not idempotent.
 */
export function interruptedToolResult(call: ToolUseBlock): string {
  const command = typeof call.input.command === "string" ? call.input.command : undefined;
  const what = command
    ? `The ${call.name} command \`${clip(command, 300)}\``
    : `The ${call.name} call ${clip(JSON.stringify(call.input), 300)}`;
  return (
    "Error: the session ended (the process was stopped or killed) while this tool call was running, so its result was lost. " +
    `${what} may have run partly or completely. Check its effects (files, processes, remote state) before running it again.`
  );
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * A session killed during a tool call leaves tool_use blocks without results, which the model API
 * would reject on the next request: give each one an error result right after its message.
 */
export function pairDanglingToolUses(messages: readonly Message[]): Message[] {
  const answered = new Set<string>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const b of m.content) if (b.type === "tool_result") answered.add(b.tool_use_id);
  }
  const out: Message[] = [];
  for (const m of messages) {
    out.push(m);
    if (m.role !== "assistant") continue;
    const missing = m.content.filter((b): b is ToolUseBlock => b.type === "tool_use" && !answered.has(b.id));
    if (missing.length === 0) continue;
    const results: ToolResultBlock[] = missing.map((b) => ({
      type: "tool_result",
      tool_use_id: b.id,
      content: interruptedToolResult(b),
      is_error: true,
    }));
    out.push({ role: "user", content: results } satisfies UserMessage);
  }
  return out;
}

function isTaskListItem(value: unknown): value is TaskListItem {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Partial<TaskListItem>;
  return typeof item.content === "string" && TASK_LIST_STATUSES.includes(item.status as TaskListItem["status"]);
}

/** A `todo` entry as the session engine writes it: { type, family, revision, items }. */
function taskListOf(entry: Record<string, unknown>): TaskListSnapshot | undefined {
  const { family, revision, items } = entry;
  if (!TASK_LIST_FAMILIES.includes(family as TaskListSnapshot["family"])) return undefined;
  if (typeof revision !== "number" || !Array.isArray(items) || !items.every(isTaskListItem)) return undefined;
  return { family: family as TaskListSnapshot["family"], revision, items };
}

export function loadTranscriptFile(path: string): LoadedTranscript {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === "ENOENT" ? `no transcript at ${path}` : `cannot read transcript ${path}: ${String(error)}`,
    );
  }
  const lines = text.split("\n");
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
  const warnings: string[] = [];
  const messages: Message[] = [];
  let sessionId = basename(path, ".jsonl");
  let model: string | undefined;
  let taskList: TaskListSnapshot | undefined;
  let loadedDeferredTools: string[] | undefined;
  const toolResultTimes = new Map<string, number>();
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let entry: {
      type?: unknown;
      message?: unknown;
      sessionId?: unknown;
      model?: unknown;
      loadedDeferredTools?: unknown;
      timestamp?: unknown;
    };
    try {
      entry = JSON.parse(line);
    } catch {
      const where =
        index === lines.length - 1
          ? "the last line is incomplete (the process was probably killed while writing)"
          : `line ${index + 1} is not valid JSON`;
      warnings.push(`transcript ${path}: ${where}; skipped it`);
      return;
    }
    if (entry.type === "session") {
      if (typeof entry.sessionId === "string") sessionId = entry.sessionId;
      if (typeof entry.model === "string") model = entry.model;
    } else if (entry.type === "todo") {
      const list = taskListOf(entry as Record<string, unknown>);
      if (list) taskList = list;
      else warnings.push(`transcript ${path}: line ${index + 1} holds a malformed task list; skipped it`);
    } else if (entry.type === "compact_boundary") {
      // Everything before was summarised: the messages after this line are the conversation.
      messages.length = 0;
      toolResultTimes.clear();
      loadedDeferredTools = Array.isArray(entry.loadedDeferredTools)
        ? entry.loadedDeferredTools.filter((name): name is string => typeof name === "string")
        : [];
    } else if (entry.type === "message" || entry.type === "user" || entry.type === "assistant") {
      // Claude Code's user / assistant lines, or a `message` entry of a format-1 transcript.
      const message = messageFromLine(entry as Record<string, unknown>);
      if (message) {
        messages.push(message);
        const at = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : Number.NaN;
        if (message.role === "user" && Array.isArray(message.content) && Number.isFinite(at))
          for (const block of message.content)
            if (block.type === "tool_result") toolResultTimes.set(block.tool_use_id, at);
      } else warnings.push(`transcript ${path}: line ${index + 1} holds a malformed message; skipped it`);
    }
  });
  const loaded: LoadedTranscript = {
    sessionId,
    path,
    messages: pairDanglingToolUses(messages),
    warnings,
    toolResultTimes,
  };
  if (model !== undefined) loaded.model = model;
  if (taskList !== undefined) loaded.taskList = taskList;
  if (loadedDeferredTools !== undefined) loaded.loadedDeferredTools = loadedDeferredTools;
  return loaded;
}

/** `--resume <id>`: the session's transcript in this cwd's project folder. */
/**
 * No saved session of this cwd has the id (nor starts with it). Said as Claude Code says it, since
 * scripts written for it look for that line; the folder is named because sessions are kept per folder.
 */
export class SessionNotFoundError extends Error {
  constructor(sessionId: string, cwd: string) {
    super(`no conversation found with session ID: ${sessionId} (among the sessions of ${cwd})`);
    this.name = "SessionNotFoundError";
  }
}

export function loadSession(cwd: string, sessionId: string): LoadedTranscript {
  if (!isValidSessionId(sessionId)) {
    throw new Error(`invalid session id ${JSON.stringify(sessionId)}: expected letters, digits, '-', '_' or '.'`);
  }
  const path = transcriptPath(cwd, resolveSessionId(cwd, sessionId));
  if (!existsSync(path)) throw new SessionNotFoundError(sessionId, cwd);
  return loadTranscriptFile(path);
}

/**
 * The full id of a saved session of this cwd named by its id or a unique start of it (`/resume`
 * lists the first 8 characters, as Claude Code's picker does). An exact name always wins; a start
 * that fits several sessions is an error that lists them.
 */
export function resolveSessionId(cwd: string, idOrPrefix: string): string {
  let names: string[];
  try {
    names = readdirSync(projectDataDir(cwd));
  } catch {
    return idOrPrefix;
  }
  const ids = names.filter((name) => name.endsWith(".jsonl")).map((name) => name.slice(0, -".jsonl".length));
  if (ids.includes(idOrPrefix)) return idOrPrefix;
  const matches = ids.filter((id) => id.startsWith(idOrPrefix));
  if (matches.length === 1) return matches[0] as string;
  // Unknown: the exact name is looked for, and loadSession says no such session exists.
  if (matches.length === 0) return idOrPrefix;
  throw new Error(
    `"${idOrPrefix}" starts the ids of ${matches.length} sessions (${matches.sort().join(", ")}); give more of the id`,
  );
}

/** `--continue`: the most recently written session of this cwd, or undefined when there is none. */
export function latestSessionId(cwd: string): string | undefined {
  const dir = projectDataDir(cwd);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  let best: { id: string; mtime: number } | undefined;
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const mtime = statSync(join(dir, name)).mtimeMs;
    if (!best || mtime > best.mtime) best = { id: name.slice(0, -".jsonl".length), mtime };
  }
  return best?.id;
}
