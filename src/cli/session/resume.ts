// The earlier conversation a session continues (--resume ID, --continue, /resume in the UI), read
// from its transcript before anything else starts: one that cannot be read stops the session.
import type { Message } from "../../messages/types.js";
import type { AppState } from "../../tool/app-state.js";
import type { TaskListSnapshot } from "../../tool/task-list.js";
import { SessionSetupError } from "./setup-error.js";

export interface ResumedSession {
  sessionId: string;
  messages: Message[];
  model?: string;
  taskList?: TaskListSnapshot;
  loadedDeferredTools?: string[];
  /** When each tool result was recorded (ms since the epoch), by tool_use id. */
  toolResultTimes?: ReadonlyMap<string, number>;
}

export interface ResumeRequest {
  /** The session id to continue. */
  resume?: string;
  /** Continue the latest session of the folder (when `resume` is not given). */
  continueLatest?: boolean;
}

export async function loadResumed(
  cwd: string,
  request: ResumeRequest,
  warn: (message: string) => void,
): Promise<ResumedSession | undefined> {
  if (request.resume === undefined && !request.continueLatest) return undefined;
  // The reader is loaded only by sessions that continue one.
  const { latestSessionId, loadSession, SessionNotFoundError } = await import("../../session/transcript-reader.js");
  const sessionId = request.resume ?? latestSessionId(cwd);
  if (sessionId === undefined) throw new SessionSetupError(`no earlier session in ${cwd} to continue`, 1);
  try {
    const loaded = loadSession(cwd, sessionId);
    for (const warning of loaded.warnings) warn(warning);
    return loaded;
  } catch (error) {
    // An unknown id is said plainly (there is no session to resume, not a session that failed to load).
    if (error instanceof SessionNotFoundError)
      throw new SessionSetupError(error.message, 1, undefined, { sessionNotFound: true });
    throw new SessionSetupError(
      `cannot resume session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`,
      1,
    );
  }
}

/** Tools loaded before a compaction are named by its boundary, not by the (summarised) messages. */
export function withToolsLoadedBefore(
  state: Partial<AppState>,
  loadedBeforeCompaction: readonly string[] | undefined,
): Partial<AppState> {
  if (!loadedBeforeCompaction?.length) return state;
  const loaded = [...(state.loadedDeferredTools ?? [])];
  for (const name of loadedBeforeCompaction) if (!loaded.includes(name)) loaded.push(name);
  return { ...state, loadedDeferredTools: loaded };
}
