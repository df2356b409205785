// `warden undo [N] [--session <id>]`: undoes the last N file changes (default 1) that the tools
// made in a session: the latest session of the current directory unless --session names one.
// Files are restored from the session's file history; a file that did not exist before is
// deleted; nothing changes when any of the files has been changed since (see file-history.ts).
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { projectDataDir, sessionArtifactsDir } from "../../config/paths.js";
import { fileHistoryDir, listFileChanges, UndoRefusedError, undoLastChanges } from "../../session/file-history.js";

const USAGE = "usage: warden undo [N] [--session <id>]   (undo the last N file changes, default 1)";

interface UndoArgs {
  count: number;
  sessionId?: string;
  list: boolean;
}

function parseArgs(argv: string[]): UndoArgs | string {
  let count: number | undefined;
  let sessionId: string | undefined;
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--session" || arg === "-s") {
      sessionId = argv[++i];
      if (!sessionId) return "--session needs a session id";
    } else if (arg.startsWith("--session=")) {
      sessionId = arg.slice("--session=".length);
    } else if (arg === "--list") {
      list = true;
    } else if (arg === "-h" || arg === "--help") {
      return "";
    } else if (/^\d+$/.test(arg) && count === undefined) {
      count = Number(arg);
      if (count < 1) return "N must be at least 1";
    } else {
      return `unexpected argument: ${arg}`;
    }
  }
  return { count: count ?? 1, sessionId, list };
}

/** The session of `cwd` whose file history changed last. */
export function latestSessionWithHistory(cwd: string): string | undefined {
  const dir = projectDataDir(cwd);
  let best: { id: string; mtime: number } | undefined;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const id of entries) {
    try {
      const mtime = statSync(path.join(fileHistoryDir(path.join(dir, id)), "log.jsonl")).mtimeMs;
      if (!best || mtime > best.mtime) best = { id, mtime };
    } catch {
      // Not a session folder with file history.
    }
  }
  return best?.id;
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (typeof parsed === "string") {
    // Asked for, the usage is the answer (stdout); after a mistake it explains the error (stderr).
    if (parsed) process.stderr.write(`warden undo: ${parsed}\n${USAGE}\n`);
    else process.stdout.write(`${USAGE}\n`);
    return parsed ? 2 : 0;
  }
  const cwd = process.cwd();
  const sessionId = parsed.sessionId ?? latestSessionWithHistory(cwd);
  if (!sessionId) {
    process.stderr.write(`warden undo: no session with file changes found for ${cwd}\n`);
    return 1;
  }
  if (/[/\\]|^\.\.?$/.test(sessionId)) {
    process.stderr.write(`warden undo: invalid session id: ${sessionId}\n`);
    return 2;
  }
  const sessionDir = sessionArtifactsDir(cwd, sessionId);
  if (parsed.list) {
    const changes = listFileChanges(sessionDir);
    if (changes.length === 0) process.stdout.write(`No file changes to undo in session ${sessionId}.\n`);
    changes.forEach((c, i) => {
      process.stdout.write(
        `${changes.length - i}. ${c.time} ${c.tool} ${c.path}${c.before === null ? " (created)" : ""}\n`,
      );
    });
    return 0;
  }
  if (listFileChanges(sessionDir).length === 0) {
    process.stderr.write(`warden undo: session ${sessionId} has no file changes left to undo\n`);
    return 1;
  }
  try {
    const report = undoLastChanges(sessionDir, parsed.count);
    for (const action of report.actions) {
      const verb = action.action === "deleted" ? "deleted (it did not exist before)" : "restored";
      process.stdout.write(`${verb}: ${action.path}  (${action.change.tool} at ${action.change.time})\n`);
    }
    const n = report.actions.length;
    process.stdout.write(`Undid ${n} change${n === 1 ? "" : "s"} in session ${sessionId}.\n`);
    if (report.missing > 0)
      process.stdout.write(
        `(Only ${n} change${n === 1 ? " was" : "s were"} recorded; ${report.missing} fewer than asked.)\n`,
      );
    return 0;
  } catch (error) {
    if (error instanceof UndoRefusedError) {
      process.stderr.write(`warden undo: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
