// A login to a remote MCP server: the OAuth 2.1 authorization-code flow with PKCE, as the MCP
// specification defines it and its SDK implements it (auth()), with the redirect received by a
// listener on 127.0.0.1 that lives only as long as the login. The caller gets the authorization
// URL to show the user, then a promise that settles once the tokens are saved (or the login failed
// or timed out). Loaded only when a server asked for authentication.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { httpFetch } from "../../providers/http-fetch.js";
import { WardenOAuthProvider } from "./provider.js";
import { readServerAuth } from "./store.js";

/** A login the user has not finished in this long is given up. */
const LOGIN_TIMEOUT_MS = 5 * 60_000;
const CALLBACK_PATH = "/callback";

export interface LoginStarted {
  /** The page the user must open to sign in. */
  authorizationUrl: string;
  /** Settles when the sign-in has finished: tokens saved, or why not. */
  done: Promise<void>;
}

export interface LoginOptions {
  name: string;
  serverUrl: string;
  timeoutMs?: number;
  /**
   * Ends the sign-in window early (the session is closing): the listener and its timer go at
   * once, so nothing keeps the process alive, and `done` rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/** Starts a login; resolves with the URL to open, or "already" when the stored tokens are still accepted. */
export async function startLogin(options: LoginOptions): Promise<LoginStarted | "already"> {
  const listener = await listen(previousPort(options));
  const redirectUrl = `http://127.0.0.1:${listener.port}${CALLBACK_PATH}`;
  let authorizationUrl: URL | undefined;
  const provider = new WardenOAuthProvider({
    name: options.name,
    serverUrl: options.serverUrl,
    redirectUrl,
    onAuthorizationUrl: (url) => {
      authorizationUrl = url;
    },
  });
  let result: Awaited<ReturnType<typeof auth>>;
  try {
    result = await auth(provider, { serverUrl: options.serverUrl, fetchFn: httpFetch });
  } catch (error) {
    listener.close();
    throw new Error(`could not start signing in to "${options.name}": ${messageOf(error)}`);
  }
  if (result === "AUTHORIZED" || !authorizationUrl) {
    listener.close();
    return "already";
  }
  const done = (async () => {
    try {
      const code = await listener.code(provider.state(), options.timeoutMs ?? LOGIN_TIMEOUT_MS, options.signal);
      const exchanged = await auth(provider, {
        serverUrl: options.serverUrl,
        authorizationCode: code,
        fetchFn: httpFetch,
      });
      if (exchanged !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
    } finally {
      listener.close();
    }
  })();
  done.catch(() => undefined);
  return { authorizationUrl: authorizationUrl.href, done };
}

/** The port of the last login's redirect, so the client registered with it can be used again. */
function previousPort(options: LoginOptions): number {
  const url = readServerAuth(options.name, options.serverUrl)?.redirectUrl;
  const port = url ? Number(new URL(url).port) : 0;
  return Number.isInteger(port) ? port : 0;
}

interface CallbackListener {
  port: number;
  code(expectedState: string, timeoutMs: number, signal?: AbortSignal): Promise<string>;
  close(): void;
}

async function listen(preferredPort: number): Promise<CallbackListener> {
  let deliver: ((result: { code?: string; state?: string; error?: string }) => void) | undefined;
  const arrived = new Promise<{ code?: string; state?: string; error?: string }>((resolve) => {
    deliver = resolve;
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    const ok = code !== null && error === null;
    res.writeHead(ok ? 200 : 400, { "content-type": "text/html; charset=utf-8" });
    res.end(
      ok
        ? "<!doctype html><title>Warden</title><p>Signed in. You can close this page and go back to Warden.</p>"
        : "<!doctype html><title>Warden</title><p>Signing in did not work. Go back to Warden for the reason.</p>",
    );
    deliver?.({
      ...(code !== null ? { code } : {}),
      ...(url.searchParams.get("state") !== null ? { state: url.searchParams.get("state") as string } : {}),
      ...(error !== null
        ? {
            error: `${error}${url.searchParams.get("error_description") ? `: ${url.searchParams.get("error_description")}` : ""}`,
          }
        : {}),
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      // The last login's port is taken: any free one (the client is registered again for it).
      if (preferredPort !== 0 && error.code === "EADDRINUSE") {
        server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
      } else reject(error);
    };
    server.once("error", onError);
    server.listen(preferredPort, "127.0.0.1", () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
  return {
    port,
    async code(expectedState, timeoutMs, signal) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const givenUp = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`nobody finished signing in within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
        onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : new Error(String(signal?.reason)));
        if (signal?.aborted) onAbort();
        else signal?.addEventListener("abort", onAbort, { once: true });
      });
      try {
        const result = await Promise.race([arrived, givenUp]);
        if (result.error) throw new Error(`the authorization server refused: ${result.error}`);
        if (result.state !== expectedState) throw new Error("the sign-in answer did not match this login (state)");
        if (!result.code) throw new Error("the sign-in answer carried no authorization code");
        return result.code;
      } finally {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener("abort", onAbort);
      }
    },
    close() {
      server.close();
      server.closeAllConnections?.();
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
