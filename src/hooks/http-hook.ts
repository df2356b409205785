// An http hook: the event's JSON POSTed to a URL, the response body read as a command hook's
// stdout. Header values may name environment variables, but only those the hook lists in
// `allowedEnvVars` are filled in (others become empty), so a settings file cannot send a secret
// of the environment to a server unless it names it. A non-2xx answer, a connection failure or a
// timeout is a failed hook, like a command that crashed.
import type { HookHttpConfig } from "../config/settings-schema.js";
import { type HookOutcome, interpretHookResult } from "./hook-output.js";

const MAX_BODY_CHARS = 1024 * 1024;

/** `$NAME` and `${NAME}` in a header value, filled from `env` only when NAME is allowed. */
export function interpolateHeader(
  value: string,
  allowed: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced, bare) => {
    const name = (braced ?? bare) as string;
    return allowed.includes(name) ? (env[name] ?? "") : "";
  });
}

export async function runHttpHook(
  hook: HookHttpConfig,
  input: unknown,
  options: { timeoutMs: number; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal },
): Promise<HookOutcome> {
  const name = `POST ${hook.url}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [key, value] of Object.entries(hook.headers ?? {})) {
    headers[key] = interpolateHeader(value, hook.allowedEnvVars ?? [], options.env);
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  let body: string;
  try {
    response = await fetch(hook.url, {
      method: "POST",
      headers,
      body: JSON.stringify(input),
      signal,
      redirect: "error",
    });
    body = (await response.text()).slice(0, MAX_BODY_CHARS);
  } catch (error) {
    if (timeout.aborted) {
      const seconds = Math.round(options.timeoutMs / 1000);
      return { kind: "failed", hook: name, message: `hook "${name}" did not answer within ${seconds} s` };
    }
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "failed", hook: name, message: `hook "${name}" could not be reached: ${message}${cause}` };
  }
  if (response.status < 200 || response.status > 299) {
    const detail = body.trim() ? `: ${body.trim().slice(0, 200)}` : "";
    return { kind: "failed", hook: name, message: `hook "${name}" answered HTTP ${response.status}${detail}` };
  }
  return interpretHookResult(
    name,
    { exitCode: 0, signal: null, stdout: body, stderr: "", timedOut: false },
    options.timeoutMs,
  );
}
