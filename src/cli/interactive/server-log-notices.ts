// What the interactive session does with MCP servers' log messages. Every message received (the
// servers send those at settings `mcpLogLevel` and above, default "warning") is appended to the
// session's log file; warnings and worse are also shown at once as one dimmed line, because a
// person wants to know that a server they rely on is failing, not to read its chatter. Below
// warning, a message is shown only with --verbose. A server that keeps failing does not flood the
// screen: after a few lines its further messages go to the file only, and the screen says so.
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { LoggingLevel, ServerLogMessage } from "../../mcp/client-features/types.js";

const SHOWN_LEVELS: ReadonlySet<LoggingLevel> = new Set(["warning", "error", "critical", "alert", "emergency"]);
/** Lines of one server shown before the rest go to the file only. */
export const SHOWN_PER_SERVER = 10;
const LINE_CHARS = 200;

export interface ServerLogNotices {
  /** The session's log handler (McpClientFeatures.onServerLog). */
  onServerLog(message: ServerLogMessage): void;
  /** Where the messages are written from now on; those received before are written there first. */
  setLogFile(path: string): void;
  /** Lines to show that have arrived since the last call. */
  drain(): string[];
  /** Called when a line to show arrives. */
  subscribe(listener: () => void): () => void;
}

export function serverLogNotices(options: { verbose: boolean }): ServerLogNotices {
  const waiting: string[] = [];
  const unwritten: string[] = [];
  const listeners = new Set<() => void>();
  const shownBy = new Map<string, number>();
  let logFile: string | undefined;

  const write = (line: string) => {
    if (!logFile) {
      unwritten.push(line);
      return;
    }
    try {
      appendFileSync(logFile, `${line}\n`);
    } catch {
      // The log is a convenience: a full disk must not break the session.
    }
  };
  const show = (line: string) => {
    waiting.push(line);
    for (const listener of listeners) listener();
  };

  return {
    onServerLog(message) {
      const data = oneLine(typeof message.data === "string" ? message.data : JSON.stringify(message.data));
      const logger = message.logger && message.logger !== message.server ? ` [${message.logger}]` : "";
      write(`${new Date().toISOString()} ${message.server}${logger} ${message.level}: ${data}`);
      if (!SHOWN_LEVELS.has(message.level) && !options.verbose) return;
      const shown = shownBy.get(message.server) ?? 0;
      shownBy.set(message.server, shown + 1);
      if (shown < SHOWN_PER_SERVER) show(`MCP server "${message.server}"${logger} ${message.level}: ${data}`);
      else if (shown === SHOWN_PER_SERVER)
        show(
          `MCP server "${message.server}" keeps logging; its further messages are only in ${logFile ?? "the session's log file"}`,
        );
    },
    setLogFile(path) {
      logFile = path;
      try {
        mkdirSync(dirname(path), { recursive: true });
      } catch {
        // write() gives up quietly too.
      }
      for (const line of unwritten.splice(0)) write(line);
    },
    drain: () => waiting.splice(0),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}
