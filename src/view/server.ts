// `warden view`'s web server: node:http on 127.0.0.1, server-rendered pages, no framework. Routes
// (every one behind access.ts's token and Host checks):
//   /                         the project's sessions, newest first (?all=1: every project's)
//   /s/<id>                   a session's page
//   /s/<id>/a/<agentId>       one of its subagents' or teammates' transcripts, as a nested page
//   .../stamp                 the transcript's size and time, polled by the page's live script
// It only reads files: a GET changes nothing, and nothing else is answered.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { transcriptPath, wardenHome } from "../config/paths.js";
import { listSavedSessions } from "../session/session-list.js";
import { isValidSessionId } from "../session/transcript-reader.js";
import { type AccessCheck, createAccessCheck } from "./access.js";
import { html } from "./html.js";
import { page } from "./layout.js";
import { readSessionView } from "./session-model.js";
import { sessionBody } from "./session-page.js";

export interface ViewServerOptions {
  /** The project whose sessions are listed first. */
  cwd: string;
  port?: number;
  access?: AccessCheck;
}

export interface ViewServer {
  server: Server;
  port: number;
  token: string;
  /** The URL to open: the list, or a session's page. */
  urlFor(sessionId?: string): string;
  close(): Promise<void>;
}

const AGENT_ID = /^a[0-9a-f]+$/;

/** The transcript of `sessionId`: this project's first, else any project's. */
export function findTranscript(cwd: string, sessionId: string): string | undefined {
  if (!isValidSessionId(sessionId)) return undefined;
  const here = transcriptPath(cwd, sessionId);
  if (existsSync(here)) return here;
  const root = join(wardenHome(), "projects");
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return undefined;
  }
  for (const dir of dirs) {
    const path = join(root, dir, `${sessionId}.jsonl`);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Changes whenever the transcript or one of its subagents' transcripts grows. */
function stampOf(path: string, artifactsDir: string): string {
  const parts: string[] = [];
  const add = (file: string) => {
    try {
      const s = statSync(file);
      parts.push(`${s.size}:${s.mtimeMs}`);
    } catch {
      parts.push("-");
    }
  };
  add(path);
  const subagents = join(artifactsDir, "subagents");
  try {
    for (const name of readdirSync(subagents).sort()) add(join(subagents, name));
  } catch {
    // No subagents yet.
  }
  return parts.join(",");
}

function send(res: ServerResponse, status: number, type: string, body: string, nonce?: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    // A second wall behind the escaping: only our own nonce'd script and style may run.
    "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce ?? "none"}'; style-src 'nonce-${nonce ?? "none"}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  });
  res.end(body);
}

function notFound(res: ServerResponse, what: string): void {
  send(res, 404, "text/plain; charset=utf-8", `404 Not Found: ${what}\n`);
}

/**
 * The request handler, without the access check: the dashboard mounts it under its own prefix
 * (`base`) behind the same check.
 */
export function viewHandler(cwd: string, base = ""): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, "text/plain; charset=utf-8", "405 Method Not Allowed\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname.startsWith(base) ? url.pathname.slice(base.length) || "/" : url.pathname;
    const nonce = randomBytes(16).toString("base64");
    if (path === "/") {
      const all = url.searchParams.get("all") === "1";
      const sessions = listSavedSessions(all ? undefined : cwd);
      const body = html`<p class="muted">${all ? "Every project's sessions" : `Sessions run in ${cwd}`} · <a href="${base}/${all ? "" : "?all=1"}">${all ? "this project only" : "all projects"}</a></p>
<table><tr><th>session</th><th>last change</th>${all ? html`<th>folder</th>` : ""}</tr>
${sessions.map(
  (s) =>
    html`<tr><td><a href="${base}/s/${s.sessionId}">${s.title ?? s.sessionId}</a><div class="muted">${s.sessionId}</div></td><td>${s.updatedAt.toISOString().replace("T", " ").slice(0, 19)}</td>${all ? html`<td>${s.cwd}</td>` : ""}</tr>`,
)}</table>${sessions.length === 0 ? html`<p>No saved sessions yet.</p>` : ""}`;
      send(res, 200, "text/html; charset=utf-8", page({ title: "Warden sessions", nonce }, body), nonce);
      return;
    }
    const match = /^\/s\/([^/]+)(?:\/a\/([^/]+))?(\/stamp)?$/.exec(path);
    const sessionId = match?.[1] ? decodeURIComponent(match[1]) : undefined;
    const transcript = sessionId !== undefined ? findTranscript(cwd, sessionId) : undefined;
    if (!match || sessionId === undefined || transcript === undefined) {
      notFound(res, "no such session");
      return;
    }
    const artifactsDir = transcript.slice(0, -".jsonl".length);
    const agentId = match[2];
    if (agentId !== undefined && !AGENT_ID.test(agentId)) {
      notFound(res, "no such subagent");
      return;
    }
    const file = agentId !== undefined ? join(artifactsDir, "subagents", `${agentId}.jsonl`) : transcript;
    if (!existsSync(file)) {
      notFound(res, "no such subagent");
      return;
    }
    const sessionUrl = `${base}/s/${encodeURIComponent(sessionId)}`;
    const pageUrl = agentId !== undefined ? `${sessionUrl}/a/${agentId}` : sessionUrl;
    if (match[3]) {
      send(res, 200, "application/json", JSON.stringify({ stamp: stampOf(file, artifactsDir) }));
      return;
    }
    const view = readSessionView(file, artifactsDir);
    // A sidechain shares its session's subagents folder: only the agents its own calls started are its.
    if (agentId !== undefined) view.otherAgents = [];
    const title = agentId !== undefined ? `Subagent ${agentId} of ${sessionId}` : `Session ${sessionId}`;
    const nav = html`<a href="${base}/">all sessions</a>${agentId !== undefined ? html` · <a href="${sessionUrl}">parent session</a>` : ""}`;
    const body = sessionBody(view, { agent: (id) => `${sessionUrl}/a/${id}` });
    send(res, 200, "text/html; charset=utf-8", page({ title, nav, stampUrl: `${pageUrl}/stamp`, nonce }, body), nonce);
  };
}

export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const access = options.access ?? createAccessCheck();
  const handle = viewHandler(options.cwd);
  let port = 0;
  const server = createServer((req, res) => {
    if (!access.admit(req, res, port)) return;
    try {
      handle(req, res);
    } catch (error) {
      // A transcript that cannot be read is the reader's problem to see, not a crash of the server.
      send(res, 500, "text/plain; charset=utf-8", `500: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    token: access.token,
    urlFor: (sessionId) =>
      `http://127.0.0.1:${port}${sessionId !== undefined ? `/s/${encodeURIComponent(sessionId)}` : "/"}?token=${access.token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
