// Transcripts: every session is appended, entry by entry, to a JSONL file under the user's data
// folder (config/paths.ts transcriptPath). Entries recorded in the same turn of the event loop are
// written together, in one synchronous append, at the end of that turn (one system call instead
// of one per entry: it was a quarter of the loop's cost per tool call), and at once on close and
// on process exit. The session also flushes before it hands an event to its front end
// (loop/session.ts), so whatever a host has been shown is on disk first: a kill -9 right after a
// stream-json line cannot lose that line's message. A killed process loses at most entries nobody
// was shown yet, and the reader skips a torn last line.
//
// Conversation messages are written in Claude Code's line shape (transcript-lines.ts), chained by
// parentUuid; the other entries (the header, permission decisions, results, compaction markers)
// keep Warden's own types, which Claude Code's tools skip.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { wardenVersion } from "../config/version.js";
import { endsWithNewline } from "../fs/json-lines.js";
import type { Message, Usage } from "../messages/types.js";
import type { PermissionDecisionReason } from "../tool/permission-types.js";
import type { ToolInput } from "../tool/types.js";
import { currentGitBranch } from "./git-branch.js";
import { type LineContext, type MessageLine, messageLine } from "./transcript-lines.js";

/** 1: messages as `{type:"message"}` entries; 2: messages as Claude Code's user / assistant lines. */
export const TRANSCRIPT_FORMAT = 2;

/** First line of a transcript file. */
export interface SessionHeaderEntry {
  type: "session";
  format: number;
  /** Warden's version (as in every message line). Format-1 files hold the format number here. */
  version: string | number;
  sessionId: string;
  cwd: string;
  model: string;
  timestamp: string;
}

/** A conversation message as format 1 wrote it (still read; format 2 writes transcript-lines.ts's lines). */
export interface MessageEntry {
  type: "message";
  message: Message;
  timestamp: string;
}

/** A permission decision, as the permission engine reports it. */
export interface PermissionEntry {
  type: "permission";
  tool_name: string;
  tool_use_id: string;
  tool_input: ToolInput;
  behavior: "allow" | "deny" | "ask";
  reason?: PermissionDecisionReason;
  message?: string;
  timestamp?: string;
}

/** How one submitted prompt ended. */
export interface ResultEntry {
  type: "result";
  reason: string;
  turnCount: number;
  usage: Usage;
  error?: string;
  timestamp: string;
}

/**
 * The conversation was summarised here: a reader drops every message before this line and
 * continues from the messages after it (the summary and the state put back).
 */
export interface CompactBoundaryEntry {
  type: "compact_boundary";
  trigger: "auto" | "manual";
  preTokens: number;
  postTokens: number;
  /** Deferred tools loaded before the boundary (their ToolSearch results are gone from the messages). */
  loadedDeferredTools: string[];
  timestamp?: string;
}

/** Session resumed in a later process: marks where the new part starts. */
export interface ResumeEntry {
  type: "resume";
  timestamp: string;
}

export type TranscriptEntry =
  | SessionHeaderEntry
  | MessageEntry
  | PermissionEntry
  | ResultEntry
  | ResumeEntry
  | CompactBoundaryEntry;

/**
 * Entries other modules add. Any object with a `type` is accepted and kept as written; only
 * `message` entries are read back into the conversation on resume.
 */
export type ExtraTranscriptEntry = { type: string; timestamp?: string; [key: string]: unknown };

export interface TranscriptHeader {
  sessionId: string;
  cwd: string;
  model: string;
  /** A subagent's transcript: its lines are marked as a sidechain with this agent's id. */
  agentId?: string;
}

/** Writers with entries that may still be pending, flushed if the process exits first. */
const liveWriters = new Set<TranscriptWriter>();
let exitHookInstalled = false;

function flushAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const writer of liveWriters) writer.flush();
  });
}

export class TranscriptWriter {
  private fd: number | undefined;
  private pending: string[] = [];
  private flushScheduled = false;
  private lineContext: LineContext | undefined;
  /** The uuid of the last message line: the next one's parentUuid (undefined until known). */
  private lastUuid: string | null | undefined;
  /**
   * Whether the file holds (or will hold) a conversation: it existed already (a resumed session), or
   * a message was recorded. Until then entries wait: a session opened and left without a word,
   * whose SessionStart hooks wrote their outcomes, left a file that `--continue` then took for the
   * latest conversation, opening on an empty screen. Such a session leaves no file, as Claude Code's.
   */
  private holdsConversation: boolean | undefined;

  constructor(
    readonly path: string,
    private readonly header: TranscriptHeader,
  ) {}

  recordMessage(message: Message): void {
    this.lineContext ??= {
      sessionId: this.header.sessionId,
      cwd: this.header.cwd,
      version: wardenVersion(),
      gitBranch: currentGitBranch(this.header.cwd),
      ...(this.header.agentId !== undefined && { agentId: this.header.agentId }),
    };
    // A resumed session continues the chain from the file's last message.
    if (this.lastUuid === undefined) this.lastUuid = existsSync(this.path) ? lastMessageUuid(this.path) : null;
    const line = messageLine(message, this.lineContext, this.lastUuid, new Date().toISOString());
    this.lastUuid = line.uuid;
    this.holdsConversation = true;
    this.append(line);
  }

  /** Public hook for other modules (permission decisions, hooks, compaction markers...). */
  recordEntry(entry: TranscriptEntry | ExtraTranscriptEntry): void {
    this.append(entry.timestamp ? entry : { ...entry, timestamp: new Date().toISOString() });
  }

  /** Writes what is pending now (nothing to do, no system call, when nothing is). */
  flush(): void {
    if (this.pending.length === 0) return;
    this.holdsConversation ??= existsSync(this.path);
    if (!this.holdsConversation) return; // kept until the first message, dropped at close without one
    const text = this.pending.join("");
    this.pending = [];
    writeSync(this.open(), text);
    liveWriters.delete(this);
  }

  close(): void {
    this.flush();
    liveWriters.delete(this);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private append(entry: TranscriptEntry | ExtraTranscriptEntry | MessageLine): void {
    // Serialised now: the entry is recorded as it is at this moment, whatever happens to it later.
    this.pending.push(`${JSON.stringify(entry)}\n`);
    // Every time: an early flush() takes the writer off the list while its scheduled one is still due.
    liveWriters.add(this);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    flushAllOnExit();
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    }).unref();
  }

  /** Opens lazily: a session that never records anything leaves no file behind. */
  private open(): number {
    if (this.fd !== undefined) return this.fd;
    // Transcripts hold whatever the session read: private to the user, like the files in them.
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const isNew = !existsSync(this.path);
    // A process killed while writing leaves a last line without its newline (../fs/json-lines.ts).
    const cut = !isNew && !endsWithNewline(this.path);
    this.fd = openSync(this.path, "a", 0o600);
    const timestamp = new Date().toISOString();
    const first: TranscriptEntry = isNew
      ? { type: "session", format: TRANSCRIPT_FORMAT, version: wardenVersion(), ...this.header, timestamp }
      : { type: "resume", timestamp };
    writeSync(this.fd, `${cut ? "\n" : ""}${JSON.stringify(first)}\n`);
    return this.fd;
  }
}

/**
 * The uuid of the last message line of a transcript, reading back from its end only as far as
 * needed (a resumed transcript may be large); null when it has none (empty, or format 1).
 */
function lastMessageUuid(path: string): string | null {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let span = Math.min(size, 64 * 1024);
    while (span > 0) {
      const buffer = Buffer.alloc(span);
      readSync(fd, buffer, 0, span, size - span);
      const lines = buffer.toString("utf8").split("\n");
      // The first piece may be a cut line unless the whole file was read.
      const whole = span === size ? lines : lines.slice(1);
      for (let i = whole.length - 1; i >= 0; i -= 1) {
        const uuid = uuidOf(whole[i] ?? "");
        if (uuid !== undefined) return uuid;
      }
      if (span === size) return null;
      span = Math.min(size, span * 4);
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function uuidOf(line: string): string | undefined {
  if (!line.includes('"uuid"')) return undefined;
  try {
    const entry = JSON.parse(line) as { type?: unknown; uuid?: unknown };
    return (entry.type === "user" || entry.type === "assistant") && typeof entry.uuid === "string"
      ? entry.uuid
      : undefined;
  } catch {
    return undefined;
  }
}
