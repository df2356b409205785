// One HTTP(S) request over node:http / node:https (the global fetch costs ~40 MB and ~80 ms on
// first use: STACK.md), for WebFetch and the search backends. Redirects are not followed: the
// caller decides (WebFetch returns a cross-host one to the model). Limits hold for the whole
// exchange: a deadline, and a cap on the body after decompression (a small gzip can inflate to
// gigabytes). `addresses` pins the connection to addresses the caller already judged, so the
// name is not resolved a second time between the judgement and the connection.
import type { LookupAddress } from "node:dns";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

export interface HttpRequestOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** The body (decompressed) may not be longer than this. */
  maxBytes: number;
  /** The whole exchange, headers and body, must end within this. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Connect to these addresses only (already resolved and judged by the caller). */
  addresses?: readonly LookupAddress[];
}

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A failure the model should read as is (too big, too slow, refused, not found). */
export class HttpRequestError extends Error {
  constructor(
    message: string,
    readonly code: "too_large" | "timeout" | "aborted" | "network",
  ) {
    super(message);
    this.name = "HttpRequestError";
  }
}

const USER_AGENT = "Warden (coding agent)";

export async function httpRequest(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  if (options.signal.aborted) throw new HttpRequestError("the request was cancelled", "aborted");
  const transport = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      if (error) {
        request.destroy();
        reject(error);
      } else resolve(response!);
    };
    const onAbort = () => finish(new HttpRequestError("the request was cancelled", "aborted"));
    const timer = setTimeout(
      () =>
        finish(new HttpRequestError(`no complete answer within ${Math.round(options.timeoutMs / 1000)} s`, "timeout")),
      options.timeoutMs,
    );
    const pinned = options.addresses;
    const request = transport.request(url, {
      method: options.method ?? "GET",
      headers: {
        "user-agent": USER_AGENT,
        "accept-encoding": "gzip, deflate, br",
        ...options.headers,
        ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}),
      },
      ...(pinned && pinned.length > 0 ? { lookup: pinnedLookup(pinned) } : {}),
    });
    request.on("error", (error) => finish(networkError(error)));
    request.on("response", (response) => {
      readBody(response, options.maxBytes).then(
        (body) =>
          finish(undefined, {
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? "",
            headers: response.headers,
            body,
          }),
        (error: Error) => finish(error),
      );
    });
    options.signal.addEventListener("abort", onAbort, { once: true });
    request.end(options.body);
  });
}

/** A dns.lookup stand-in that answers with the judged addresses only. */
function pinnedLookup(addresses: readonly LookupAddress[]) {
  return (
    _hostname: string,
    options: { all?: boolean },
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    if (options.all) callback(null, [...addresses]);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

function networkError(error: Error): HttpRequestError {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    ENOTFOUND: "the host name does not resolve",
    ECONNREFUSED: "the connection was refused",
    ECONNRESET: "the connection was reset",
    ETIMEDOUT: "the connection timed out",
    EHOSTUNREACH: "the host is unreachable",
    CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
    DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
    ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another name",
  };
  const reason = (code && reasons[code]) ?? error.message;
  return new HttpRequestError(code && reasons[code] ? `${reason} (${code})` : reason, "network");
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(createGunzip());
  if (encoding === "br") return response.pipe(createBrotliDecompress());
  if (encoding === "deflate") return response.pipe(createInflate());
  return response;
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const stream = decoded(response);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) {
        response.destroy();
        stream.destroy();
        throw new HttpRequestError(`the content is larger than the limit of ${formatBytes(maxBytes)}`, "too_large");
      }
      chunks.push(buffer);
    }
  } catch (error) {
    if (error instanceof HttpRequestError) throw error;
    throw new HttpRequestError(
      `the body could not be read: ${error instanceof Error ? error.message : String(error)}`,
      "network",
    );
  }
  return Buffer.concat(chunks);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KB`;
  return `${bytes} bytes`;
}
