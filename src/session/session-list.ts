// The saved sessions of a project, newest first, each with the folder it ran in, when it last
// changed and a title: the last title given to it (a `custom-title` line, as Claude Code writes
// when a session is renamed, or a `summary` line), else its first prompt. For pickers that let a
// person continue an earlier session (an editor's session list).
import { closeSync, fstatSync, openSync, readdirSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { projectDataDir, wardenHome } from "../config/paths.js";

export interface SavedSession {
  sessionId: string;
  /** The folder the session ran in (its transcript's `cwd`). */
  cwd: string;
  /** When its transcript last changed. */
  updatedAt: Date;
  title?: string;
}

/** How much of a transcript's start and end is read for its folder and title. */
const EDGE_BYTES = 64 * 1024;
const TITLE_CHARS = 80;

/**
 * Saved sessions (main conversations, not subagents'), newest first: those that ran in `cwd`
 * when given, else every project's.
 */
export function listSavedSessions(cwd?: string): SavedSession[] {
  const dirs = cwd === undefined ? projectDirs() : [projectDataDir(cwd)];
  const sessions: SavedSession[] = [];
  for (const dir of dirs) {
    for (const name of transcriptNames(dir)) {
      const path = join(dir, name);
      try {
        const described = describe(path);
        // Two folders can share a project slug: keep only the folder asked for.
        if (cwd !== undefined && described.cwd !== undefined && described.cwd !== cwd) continue;
        sessions.push({
          sessionId: name.slice(0, -".jsonl".length),
          updatedAt: described.updatedAt,
          cwd: described.cwd ?? cwd ?? "",
          ...(described.title && { title: described.title }),
        });
      } catch {
        // Deleted while listing, or unreadable: not a session anyone can continue.
      }
    }
  }
  return sessions.filter((s) => s.cwd !== "").sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
}

/**
 * Deletes a saved session: its transcript and its folder (tool results, file history, subagents'
 * sidechains, task outputs, plan). Only a transcript found in a project's folder under the exact
 * name is deleted, so an id can never reach outside it. False when no such session is saved.
 */
export function deleteSavedSession(sessionId: string): boolean {
  const name = `${sessionId}.jsonl`;
  const dir = projectDirs().find((candidate) => transcriptNames(candidate).includes(name));
  if (dir === undefined) return false;
  // The folder first: a transcript left alone still lists the session, so a failure is seen and can be retried.
  rmSync(join(dir, sessionId), { recursive: true, force: true });
  rmSync(join(dir, name), { force: true });
  return true;
}

function projectDirs(): string[] {
  const root = join(wardenHome(), "projects");
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, entry.name));
  } catch {
    return [];
  }
}

function transcriptNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return [];
  }
}

function describe(path: string): { updatedAt: Date; cwd?: string; title?: string } {
  const { updatedAt, head, tail } = edges(path);
  let cwd: string | undefined;
  let firstPrompt: string | undefined;
  for (const line of completeLines(head)) {
    cwd ??= typeof line.cwd === "string" ? line.cwd : undefined;
    firstPrompt ??= promptOf(line);
    if (cwd && firstPrompt) break;
  }
  let title: string | undefined;
  for (const line of completeLines(tail)) title = titleOf(line) ?? title;
  title ??= firstPrompt;
  return { updatedAt, ...(cwd && { cwd }), ...(title && { title: oneLine(title) }) };
}

/**
 * The first and last EDGE_BYTES of the file (the same text twice when it is small), and when it
 * last changed: one stat of the open file gives both its size and its time.
 */
function edges(path: string): { updatedAt: Date; head: string; tail: string } {
  const fd = openSync(path, "r");
  try {
    const { size, mtime: updatedAt } = fstatSync(fd);
    const read = (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const got = readSync(fd, buffer, 0, length, position);
      return buffer.subarray(0, got).toString("utf8");
    };
    if (size <= EDGE_BYTES) {
      const whole = read(0, size);
      return { updatedAt, head: whole, tail: whole };
    }
    return { updatedAt, head: read(0, EDGE_BYTES), tail: read(size - EDGE_BYTES, EDGE_BYTES) };
  } finally {
    closeSync(fd);
  }
}

/** The lines of a slice that parse as JSON objects (a cut first or last line does not). */
function completeLines(text: string): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  for (const raw of text.split("\n")) {
    if (!raw.startsWith("{")) continue;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) lines.push(parsed as Record<string, unknown>);
    } catch {
      // A line cut by the slice's edge.
    }
  }
  return lines;
}

function titleOf(line: Record<string, unknown>): string | undefined {
  if (line.type === "custom-title" && typeof line.customTitle === "string") return line.customTitle;
  if (line.type === "summary" && typeof line.summary === "string") return line.summary;
  return undefined;
}

/** The text of a prompt the person typed (not a reminder the harness wrote, not a tool result). */
function promptOf(line: Record<string, unknown>): string | undefined {
  if (line.type !== "user" || line.isMeta === true || line.isSidechain === true) return undefined;
  const message = line.message as { content?: unknown } | undefined;
  const content = message?.content;
  if (typeof content === "string") return content || undefined;
  if (!Array.isArray(content)) return undefined;
  const text = content
    .filter(
      (block): block is { type: "text"; text: string } => block?.type === "text" && typeof block.text === "string",
    )
    .map((block) => block.text)
    .join(" ");
  return text.trim() || undefined;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > TITLE_CHARS ? `${flat.slice(0, TITLE_CHARS - 1)}…` : flat;
}
