// Turns whatever an SDK or the network throws into a ProviderError that says what happened and
// whether trying again can help. Both SDKs are read by shape (status, headers, body) rather than
// by class, so this file never loads either of them.
import { ProviderError } from "./types.js";

// Transient by nature: rate limits, overload, timeouts and server-side failures.
const RETRYABLE_STATUSES = new Set([408, 409, 429, 529]);
// The request itself is wrong (bad input, bad key, no access, no such model): the same request
// fails the same way again, whatever a header says.
const NEVER_RETRYABLE_STATUSES = new Set([400, 401, 403, 404]);
const RETRYABLE_ERROR_TYPES = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "server_error",
  "timeout_error",
]);

// Wordings the APIs use for a request larger than the model's context window: Anthropic
// ("prompt is too long: 201000 tokens > 200000 maximum"), OpenAI and most compatible servers
// ("maximum context length", code context_length_exceeded), llama.cpp / vLLM variants.
const PROMPT_TOO_LONG =
  /prompt is too long|context[_ ]length[_ ]exceeded|maximum context length|exceeds? the (?:[\w']+ )?context|exceed_context_size|context window|too many (?:input )?tokens/i;

export function isPromptTooLongMessage(message: string): boolean {
  return PROMPT_TOO_LONG.test(message);
}

interface HeaderLookup {
  get(name: string): string | null;
}

/** The shape both SDKs' APIError share. */
interface ApiErrorShape {
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  message?: unknown;
  code?: unknown;
  type?: unknown;
}

function hasHeaderLookup(headers: unknown): headers is HeaderLookup {
  return typeof headers === "object" && headers !== null && typeof (headers as HeaderLookup).get === "function";
}

/** retry-after-ms (both APIs send it) wins over retry-after (seconds, or an HTTP date). */
export function retryAfterMsFrom(headers: unknown, now = Date.now()): number | undefined {
  if (!hasHeaderLookup(headers)) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Pulls `{type, message}` out of an error body in either API's format. */
function describeBody(body: unknown): { type?: string; message?: string } {
  if (typeof body !== "object" || body === null) return typeof body === "string" && body ? { message: body } : {};
  const record = body as Record<string, unknown>;
  const inner =
    typeof record.error === "object" && record.error !== null ? (record.error as Record<string, unknown>) : record;
  const type = typeof inner.type === "string" ? inner.type : typeof inner.code === "string" ? inner.code : undefined;
  const message = typeof inner.message === "string" ? inner.message : undefined;
  return { type, message };
}

export function isAbortError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const name = (error as { name?: unknown }).name;
  return name === "AbortError" || name === "APIUserAbortError";
}

export function abortedError(): ProviderError {
  return new ProviderError("The model request was aborted.", undefined, false, "aborted");
}

/**
 * Classifies a failure of one model request. `label` names the API in messages ("Anthropic API").
 * `duringStream` marks failures after the response head arrived: a transport error there is a
 * cut stream (retryable), not a failed connection.
 */
export function toProviderError(
  error: unknown,
  label: string,
  signal: AbortSignal,
  duringStream = false,
): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted || isAbortError(error)) return abortedError();

  const shape = (typeof error === "object" && error !== null ? error : {}) as ApiErrorShape;
  const { type, message } = describeBody(shape.error);
  const detail = message ?? (typeof shape.message === "string" ? shape.message : String(error));
  const errorType =
    type ?? (typeof shape.type === "string" ? shape.type : typeof shape.code === "string" ? shape.code : undefined);
  const typeNote = errorType ? ` (${errorType})` : "";

  if (typeof shape.status === "number") {
    const status = shape.status;
    if (
      (status === 400 || status === 413) &&
      (isPromptTooLongMessage(detail) || errorType === "context_length_exceeded")
    ) {
      return new ProviderError(
        `${label}: the prompt is too long for the model's context window: ${detail}`,
        status,
        false,
        "prompt_too_long",
      );
    }
    const shouldRetryHeader = hasHeaderLookup(shape.headers) ? shape.headers.get("x-should-retry") : null;
    const retryable = NEVER_RETRYABLE_STATUSES.has(status)
      ? false
      : shouldRetryHeader === "true"
        ? true
        : shouldRetryHeader === "false"
          ? false
          : RETRYABLE_STATUSES.has(status) || status >= 500;
    const result = new ProviderError(`${label} error ${status}${typeNote}: ${detail}`, status, retryable, "http");
    result.retryAfterMs = retryAfterMsFrom(shape.headers);
    return result;
  }

  // An error event inside a 200 stream (e.g. Anthropic's overloaded_error mid-response).
  if (errorType && shape.error !== undefined) {
    if (isPromptTooLongMessage(detail)) {
      return new ProviderError(
        `${label}: the prompt is too long for the model's context window: ${detail}`,
        undefined,
        false,
        "prompt_too_long",
      );
    }
    return new ProviderError(
      `${label} stream error${typeNote}: ${detail}`,
      undefined,
      RETRYABLE_ERROR_TYPES.has(errorType),
      "http",
    );
  }

  const cause = (error as { cause?: unknown } | null)?.cause;
  const causeText =
    cause instanceof Error && cause.message && !detail.includes(cause.message) ? ` (${cause.message})` : "";
  if (duringStream) {
    return new ProviderError(
      `${label}: the response stream broke before its end: ${detail}${causeText}`,
      undefined,
      true,
      "stream_cut",
    );
  }
  if (isConnectionError(error)) {
    const refused = refusedByThisMachine(error);
    if (refused) {
      const failure = new ProviderError(
        `${label}: nothing is listening at ${refused.address}:${refused.port} (connection refused). Is the model server running, and is that its address?`,
        undefined,
        true,
        "network",
      );
      failure.refusedLocally = refused;
      return failure;
    }
    return new ProviderError(`${label}: could not reach the server: ${detail}${causeText}`, undefined, true, "network");
  }
  // Anything else (a client-side refusal, a bug) fails the same way every time: not retried.
  return new ProviderError(`${label}: ${detail}${causeText}`, undefined, false, "http");
}

/** The error and the causes it wraps, outermost first (a few levels: SDK error → fetch error → socket error). */
function* causeChain(error: unknown, levels = 4): Generator<Record<string, unknown>> {
  let current = error;
  for (let level = 0; level <= levels && typeof current === "object" && current !== null; level += 1) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

/** Connection failures as the SDKs report them (wrapping our fetch's TypeError), or a raw socket error. */
function isConnectionError(error: unknown): boolean {
  // The OpenAI SDK leaves `name` as "Error" on its classes; the class name still says it.
  const connectionNames = ["APIConnectionError", "APIConnectionTimeoutError"];
  for (const link of causeChain(error, 3)) {
    const { name, code, message } = link;
    const className = (link as { constructor?: { name?: unknown } }).constructor?.name;
    if (connectionNames.includes(String(name)) || connectionNames.includes(String(className))) return true;
    if (link instanceof TypeError && typeof message === "string" && message.startsWith("fetch failed")) return true;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return true;
  }
  return false;
}

/** The address and port of a connection refused on a loopback address, found down the error's causes. */
function refusedByThisMachine(error: unknown): { address: string; port: number } | undefined {
  for (const { code, address, port } of causeChain(error)) {
    if (code === "ECONNREFUSED" && typeof address === "string" && typeof port === "number" && isLoopback(address)) {
      return { address, port };
    }
  }
  return undefined;
}

function isLoopback(address: string): boolean {
  return address.startsWith("127.") || address === "::1" || address.startsWith("::ffff:127.");
}

/** A failure to build the client (no key, SDK missing): the same on every try. */
export function setupError(error: unknown, label: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`${label}: could not set up the client: ${message}`, undefined, false, "http");
}
