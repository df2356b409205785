// What a client sees while one of Warden's tools runs for it: a log line when the call starts and
// ends (at the level the client set with logging/setLevel), and, when the request carried a
// progress token, a progress notification every second with the elapsed time and the tool's own
// latest progress (Bash: the last line of output so far). Every tool gets the heartbeat, so a long
// Grep is as visibly alive as a long Bash.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";

export const PROGRESS_INTERVAL_MS = 1_000;

export interface CallProgressOptions {
  server: Server;
  toolName: string;
  progressToken: string | number | undefined;
  sendNotification: (notification: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; message?: string };
  }) => Promise<void>;
  /** The transport's session (HTTP): log levels are kept per session. */
  sessionId: string | undefined;
}

export interface CallProgress {
  /** Give to the tool as its progress callback. */
  onToolProgress(progress: unknown): void;
  finish(outcome: { isError: boolean }): void;
}

export function logToClient(server: Server, level: LoggingLevel, data: unknown, sessionId: string | undefined): void {
  // A client that went away cannot be told; the call's result is what matters.
  void server.sendLoggingMessage({ level, logger: "warden", data }, sessionId).catch(() => undefined);
}

/** One line a person would want to see from a tool's progress event, when it has one. */
export function progressLine(progress: unknown): string | undefined {
  if (typeof progress !== "object" || progress === null) return undefined;
  const output = (progress as { output?: unknown }).output;
  if (typeof output !== "string") return undefined;
  const lines = output.trimEnd().split("\n");
  const last = lines[lines.length - 1]?.trim();
  return last ? last.slice(0, 200) : undefined;
}

export function startCallProgress(options: CallProgressOptions): CallProgress {
  const startedAt = Date.now();
  logToClient(options.server, "info", { event: "tool_call_started", tool: options.toolName }, options.sessionId);
  let latest: string | undefined;
  let ticks = 0;
  const token = options.progressToken;
  const timer =
    token === undefined
      ? undefined
      : setInterval(() => {
          ticks += 1;
          const seconds = Math.round((Date.now() - startedAt) / 1000);
          const message = latest ? `${options.toolName}: ${seconds}s, ${latest}` : `${options.toolName}: ${seconds}s`;
          void options
            .sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: ticks, message },
            })
            .catch(() => undefined);
        }, PROGRESS_INTERVAL_MS);
  timer?.unref();
  return {
    onToolProgress(progress) {
      latest = progressLine(progress) ?? latest;
    },
    finish({ isError }) {
      if (timer) clearInterval(timer);
      logToClient(
        options.server,
        isError ? "warning" : "info",
        { event: "tool_call_finished", tool: options.toolName, is_error: isError, duration_ms: Date.now() - startedAt },
        options.sessionId,
      );
    },
  };
}
