// A `fetch` over node:http / node:https for the provider SDKs. Node's global fetch loads undici on
// first use, which costs about 40 MB of RSS and 80 ms before the first model request can leave;
// both SDKs accept a custom `fetch`, and they only need what is here: a request with headers and
// a body, a streamed response body, and abort signals that stop everything at once.
import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { abortReason, NodeResponseBody } from "./response-body.js";
import { SdkResponse } from "./sdk-response.js";

type FetchInput =
  | string
  | URL
  | {
      url: string;
      method?: string;
      headers?: unknown;
      signal?: AbortSignal | null;
      arrayBuffer(): Promise<ArrayBuffer>;
    };

const MAX_REDIRECTS = 20;
// Statuses whose responses cannot carry a body; `new Response(body)` throws for them.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
// Credentials must not follow a redirect to another origin.
const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "cookie", "proxy-authorization"];

interface PreparedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  /** Undefined when there is no body; a Buffer so a redirect or a stale keep-alive socket can resend it. */
  body: Buffer | undefined;
  redirect: "follow" | "manual" | "error";
  signal: AbortSignal | undefined;
}

const requestWrittenListeners: Array<() => void> = [];

/**
 * Calls `listener` once, when the next request made through httpFetch has been handed to the
 * operating system whole. A session uses it to start work that must not delay its first model
 * request (loading what tools need, finishing MCP handshakes) the moment that request is out.
 */
export function onNextRequestWritten(listener: () => void): void {
  requestWrittenListeners.push(listener);
}

function tellRequestWritten(): void {
  for (const listener of requestWrittenListeners.splice(0)) listener();
}

const responseListeners: Array<() => void> = [];

/**
 * Calls `listener` once, when the head of the next response to a request made through httpFetch
 * arrives (whichever request it answers). A session uses it to tell a model that is still
 * thinking from one whose answer has begun, without a look at every event of the answer.
 */
export function onNextResponse(listener: () => void): void {
  responseListeners.push(listener);
}

function tellResponseBegan(): void {
  for (const listener of responseListeners.splice(0)) listener();
}

/** `fetch`-compatible: resolves with a Response whose body streams as the bytes arrive. */
export function httpFetch(input: FetchInput, init: RequestInit = {}): Promise<Response> {
  return fetchOver(input, init, (parts) => {
    const response = new Response(parts.body?.webStream() ?? null, parts);
    Object.defineProperty(response, "url", { value: parts.url });
    return response;
  });
}

/**
 * The fetch of the provider SDKs: the same requests as httpFetch, answered with an SdkResponse
 * instead of Node's global Response, whose first use loads undici (./sdk-headers.ts says what that
 * costs), and whose body they read straight from Node's stream (./response-body.ts). The SDKs read
 * nothing of a response that SdkResponse lacks; other callers (MCP's transports, which hand the
 * response on to code of their own) keep httpFetch.
 */
export function providerFetch(input: FetchInput, init: RequestInit = {}): Promise<Response> {
  return fetchOver(input, init, (parts) => new SdkResponse(parts.body, parts) as unknown as Response);
}

interface ResponseParts {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: NodeResponseBody | null;
  url: string;
}

async function fetchOver(
  input: FetchInput,
  init: RequestInit,
  toResponse: (parts: ResponseParts) => Response,
): Promise<Response> {
  const prepared = await prepare(input, init);
  throwIfAborted(prepared.signal);
  for (let redirects = 0; ; redirects++) {
    const response = await send(prepared, true);
    const location = response.headers.location;
    if (!isRedirect(response.statusCode) || location === undefined || prepared.redirect === "manual") {
      return toResponse(await responseParts(response, prepared));
    }
    response.resume();
    if (prepared.redirect === "error")
      throw new TypeError(`fetch failed: redirected to ${location} with redirect: "error"`);
    if (redirects >= MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects`);
    followRedirect(prepared, response.statusCode ?? 0, new URL(location, prepared.url));
  }
}

async function prepare(input: FetchInput, init: RequestInit): Promise<PreparedRequest> {
  const fromRequest = typeof input === "object" && !(input instanceof URL) ? input : undefined;
  const url = new URL(fromRequest ? fromRequest.url : String(input));
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`fetch failed: unsupported protocol ${url.protocol} (only http and https)`);
  }
  const headers = normalizeHeaders(init.headers ?? fromRequest?.headers);
  let body = await bodyBytes(init.body, headers);
  if (body === undefined && fromRequest && init.body === undefined) {
    const bytes = Buffer.from(await fromRequest.arrayBuffer());
    if (bytes.length > 0) body = bytes;
  }
  const method = (init.method ?? fromRequest?.method ?? "GET").toUpperCase();
  const signal = init.signal ?? fromRequest?.signal ?? undefined;
  return { url, method, headers, body, redirect: init.redirect ?? "follow", signal };
}

/** Accepts a Headers object, an array of pairs or a plain record, without loading undici's Headers. */
function normalizeHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const put = (name: string, value: unknown) => {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? String(value) : `${out[key]}, ${String(value)}`;
  };
  if (Array.isArray(headers)) {
    for (const pair of headers as Array<[string, unknown]>) put(pair[0], pair[1]);
  } else if (typeof (headers as { forEach?: unknown }).forEach === "function") {
    (headers as { forEach(cb: (value: string, name: string) => void): void }).forEach((value, name) => {
      put(name, value);
    });
  } else {
    for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
      if (value !== undefined && value !== null) put(name, value);
    }
  }
  return out;
}

async function bodyBytes(body: RequestInit["body"], headers: Record<string, string>): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams) {
    headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
    return Buffer.from(body.toString(), "utf8");
  }
  if (typeof (body as { getReader?: unknown }).getReader === "function") {
    const parts: Buffer[] = [];
    for await (const part of body as AsyncIterable<Uint8Array>) parts.push(Buffer.from(part));
    return Buffer.concat(parts);
  }
  // Blob and FormData (file uploads, never on the model path): let the platform encode them,
  // boundary included; paying for undici here is fine because it is rare.
  const encoded = new Response(body as ConstructorParameters<typeof Response>[0]);
  const contentType = encoded.headers.get("content-type");
  if (contentType) headers["content-type"] ??= contentType;
  return Buffer.from(await encoded.arrayBuffer());
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

function isRedirect(status: number | undefined): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

function followRedirect(prepared: PreparedRequest, status: number, target: URL): void {
  if (status === 303 || ((status === 301 || status === 302) && prepared.method === "POST")) {
    prepared.method = "GET";
    prepared.body = undefined;
    delete prepared.headers["content-type"];
    delete prepared.headers["content-length"];
  }
  if (target.origin !== prepared.url.origin) {
    for (const name of CREDENTIAL_HEADERS) delete prepared.headers[name];
  }
  prepared.url = target;
}

/**
 * Sends the request and resolves at the response head. A request that fails on a reused
 * keep-alive socket before any response is sent once more on a fresh one: the server had closed
 * the idle connection, and nothing reached it.
 */
function send(prepared: PreparedRequest, mayRetryStaleSocket: boolean): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const { url, signal } = prepared;
    const headers: Record<string, string> = { ...prepared.headers };
    if (prepared.body !== undefined) headers["content-length"] = String(prepared.body.length);
    const options: RequestOptions = { method: prepared.method, headers };
    const request: ClientRequest = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options);

    const onAbort = () => {
      request.destroy();
      reject(abortReason(signal!));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal?.removeEventListener("abort", onAbort);

    request.on("response", (response) => {
      settle();
      if (responseListeners.length > 0) tellResponseBegan();
      resolve(response);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      settle();
      if (signal?.aborted) return reject(abortReason(signal));
      if (mayRetryStaleSocket && request.reusedSocket && error.code === "ECONNRESET") {
        send(prepared, false).then(resolve, reject);
        return;
      }
      reject(new TypeError(`fetch failed: ${error.message}`, { cause: error }));
    });
    if (requestWrittenListeners.length > 0) request.once("finish", tellRequestWritten);
    request.end(prepared.body);
  });
}

async function responseParts(message: IncomingMessage, prepared: PreparedRequest): Promise<ResponseParts> {
  const status = message.statusCode ?? 0;
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < message.rawHeaders.length; i += 2)
    headers.push([message.rawHeaders[i]!, message.rawHeaders[i + 1]!]);
  const hasBody = prepared.method !== "HEAD" && !NULL_BODY_STATUSES.has(status);
  const body = hasBody ? new NodeResponseBody(await decoded(message), message, prepared.signal) : null;
  if (!hasBody) message.resume();
  return { status, statusText: message.statusMessage ?? "", headers, body, url: prepared.url.href };
}

/** The body as fetch would give it: decompressed. */
async function decoded(message: IncomingMessage): Promise<Readable> {
  const encoding = String(message.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "deflate" && encoding !== "br") return message;
  const zlib = await import("node:zlib");
  const decoder =
    encoding === "br"
      ? zlib.createBrotliDecompress()
      : encoding === "deflate"
        ? zlib.createInflate()
        : zlib.createGunzip();
  message.on("error", (error) => decoder.destroy(error));
  message.pipe(decoder);
  return decoder;
}
