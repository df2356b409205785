// session/list: the saved Warden sessions an editor may offer to continue (session/load,
// session/resume or session/fork), newest first, a page at a time.
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { listSavedSessions } from "../../session/session-list.js";

const PAGE_SIZE = 50;

export function listSessionsPage(params: acp.ListSessionsRequest): acp.ListSessionsResponse {
  // The cursor is the position of the page's first session, as a string (opaque to the editor).
  const start = params.cursor ? Number.parseInt(params.cursor, 10) : 0;
  const saved = listSavedSessions(params.cwd ?? undefined);
  const from = Number.isSafeInteger(start) && start > 0 ? start : 0;
  const page = saved.slice(from, from + PAGE_SIZE);
  return {
    sessions: page.map((s) => ({
      sessionId: s.sessionId,
      cwd: s.cwd,
      updatedAt: s.updatedAt.toISOString(),
      ...(s.title && { title: s.title }),
    })),
    ...(from + PAGE_SIZE < saved.length && { nextCursor: String(from + PAGE_SIZE) }),
  };
}
