// Who may read the pages of `warden view` and `warden fleet dashboard`: transcripts hold whatever a
// session read (source, secrets in files, command output), so a local web page showing them must
// not be readable by anything else on the machine or by a web site the person visits.
//   - the server listens on 127.0.0.1 only;
//   - every request carries a random token (in the printed URL, then in a cookie scoped to this
//     port's pages, so the pages' own assets and live updates need not repeat it), compared in
//     constant time; without it, 403;
//   - the Host header must name 127.0.0.1 or localhost: a DNS-rebinding page (evil.example
//     resolving to 127.0.0.1) sends its own host name and is refused, token or not.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export interface AccessCheck {
  token: string;
  /** The cookie that carries the token after the first page (named per port: cookies ignore ports). */
  cookieName(port: number): string;
  /** True when the request may go on; otherwise the 403 is already written. */
  admit(req: IncomingMessage, res: ServerResponse, port: number): boolean;
}

export function newAccessToken(): string {
  return randomBytes(24).toString("base64url");
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost"]);

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Host header's name, when it is `name` or `name:port` for this server's port. */
function hostIsLocal(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const match = /^([^:]+)(?::(\d+))?$/.exec(host.toLowerCase());
  if (!match?.[1] || !LOCAL_HOSTS.has(match[1])) return false;
  return match[2] === undefined || Number(match[2]) === port;
}

function refuse(res: ServerResponse, why: string): false {
  res.writeHead(403, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(`403 Forbidden: ${why}\n`);
  return false;
}

export function createAccessCheck(token: string = newAccessToken()): AccessCheck {
  const cookieName = (port: number) => `warden_token_${port}`;
  return {
    token,
    cookieName,
    admit(req, res, port) {
      if (!hostIsLocal(req.headers.host, port)) return refuse(res, "this page answers only to 127.0.0.1 or localhost");
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const fromQuery = url.searchParams.get("token");
      const fromCookie = cookieValue(req.headers.cookie, cookieName(port));
      if (fromQuery !== null && sameSecret(fromQuery, token)) {
        // HttpOnly: no script reads it; SameSite=Strict: no other site's page sends it.
        res.setHeader("set-cookie", `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`);
        return true;
      }
      if (fromCookie !== undefined && sameSecret(fromCookie, token)) return true;
      return refuse(res, "the URL's token is missing or wrong (use the URL warden printed)");
    },
  };
}
