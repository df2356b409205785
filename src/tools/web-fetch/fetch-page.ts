// Fetching one page for WebFetch: same-host redirects followed (at most ten), a redirect to
// another host handed back, text only, decoded by its charset, HTML converted to markdown. The
// connection goes only to the addresses ./host-resolution.ts accepts for the host.
import { formatBytes, HttpRequestError, httpRequest } from "../web-shared/http-request.js";
import { htmlToMarkdown } from "./convert.js";
import { addressesForFetch, type HostJudgements } from "./host-resolution.js";
import { fetchTarget, sameHost } from "./url.js";

export const MAX_CONTENT_BYTES = 10 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 60_000;
export const MAX_REDIRECTS = 10;
/**
 * HTML beyond this many characters is not converted. The conversion runs on the session's thread
 * (a 1 MB page takes seconds on a busy machine) and the reader only sees the first 100,000
 * characters of markdown anyway; the cut keeps a 10 MB page from stalling the session for a minute.
 */
export const MAX_HTML_CONVERT_CHARS = 2_000_000;

export interface FetchedPage {
  /** The URL the content came from (after same-host redirects). */
  url: string;
  status: number;
  statusText: string;
  /** The media type, without parameters (`text/html`). */
  contentType: string;
  /** Size of the body as received (decompressed). */
  bytes: number;
  /** What the reader sees: markdown for HTML, the text itself for other text types. */
  content: string;
  /** The server sent markdown (text/markdown, or a .md URL served as plain text). */
  isMarkdown: boolean;
  title?: string;
  /** The HTML was longer than the conversion limit: only its beginning became markdown. */
  htmlCut?: boolean;
}

export type FetchOutcome =
  | { kind: "page"; page: FetchedPage }
  | { kind: "redirect"; from: string; to: string; status: number };

/** A failure the model reads as the call's error. */
export class WebFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebFetchError";
  }
}

export interface FetchPageOptions {
  /** The session's judgements of hosts: the addresses fetched are held to them (host-resolution.ts). */
  judgements: HostJudgements;
  signal: AbortSignal;
  maxBytes?: number;
  timeoutMs?: number;
  /** Default MAX_HTML_CONVERT_CHARS. */
  maxHtmlChars?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function fetchPage(start: URL, options: FetchPageOptions): Promise<FetchOutcome> {
  let url = start;
  const deadline = Date.now() + (options.timeoutMs ?? FETCH_TIMEOUT_MS);
  for (let redirects = 0; ; redirects++) {
    const pinned = await addressesForFetch(options.judgements, url.hostname);
    if ("error" in pinned) throw new WebFetchError(pinned.error);
    let response: Awaited<ReturnType<typeof httpRequest>>;
    try {
      response = await httpRequest(url, {
        headers: { accept: "text/markdown, text/html;q=0.9, text/*;q=0.8, application/json;q=0.7, */*;q=0.1" },
        maxBytes: options.maxBytes ?? MAX_CONTENT_BYTES,
        timeoutMs: Math.max(1, deadline - Date.now()),
        signal: options.signal,
        addresses: pinned.addresses,
      });
    } catch (error) {
      if (error instanceof HttpRequestError) throw new WebFetchError(`Fetching ${url.href} failed: ${error.message}.`);
      throw error;
    }
    if (REDIRECT_STATUSES.has(response.status)) {
      const location = response.headers.location;
      if (!location) throw new WebFetchError(`${url.href} answered ${response.status} without a Location to go to.`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new WebFetchError(`${url.href} redirects to an invalid URL: ${location}`);
      }
      const target = fetchTarget(next.href);
      if ("error" in target) throw new WebFetchError(`${url.href} redirects to ${next.href}: ${target.error}`);
      if (!sameHost(url, target.url))
        return { kind: "redirect", from: url.href, to: target.url.href, status: response.status };
      if (redirects >= MAX_REDIRECTS)
        throw new WebFetchError(`${start.href} redirected more than ${MAX_REDIRECTS} times.`);
      url = target.url;
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      throw new WebFetchError(
        `${url.href} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
      );
    }
    return {
      kind: "page",
      page: await pageOf(
        options.maxHtmlChars ?? MAX_HTML_CONVERT_CHARS,
        url,
        response.status,
        response.statusText,
        response.headers["content-type"],
        response.body,
      ),
    };
  }
}

/** Media types read as text besides text/*. */
const TEXT_APPLICATION_TYPES = new Set([
  "application/json",
  "application/xml",
  "application/xhtml+xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/x-sh",
  "application/sql",
  "application/graphql",
]);

function isTextType(type: string): boolean {
  return (
    type.startsWith("text/") || TEXT_APPLICATION_TYPES.has(type) || type.endsWith("+json") || type.endsWith("+xml")
  );
}

/** No Content-Type: text when the start has no NUL byte and decodes as UTF-8. */
function looksLikeText(body: Buffer): boolean {
  const head = body.subarray(0, 4096);
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, lastCompleteUtf8(head)));
    return true;
  } catch {
    return false;
  }
}

/** Where the last whole UTF-8 character of a cut buffer ends. */
function lastCompleteUtf8(buffer: Buffer): number {
  let end = buffer.length;
  for (let back = 1; back <= 3 && back <= buffer.length; back++) {
    const byte = buffer[buffer.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    if (byte >= 0xc0) end = buffer.length - back; // a lead byte whose sequence may be cut
    break;
  }
  return end;
}

function charsetOf(contentType: string | undefined, body: Buffer, isHtml: boolean): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (declared) return declared;
  if (isHtml) {
    const head = body.subarray(0, 2048).toString("latin1");
    const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
    if (meta) return meta;
  }
  return "utf-8";
}

function decode(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

async function pageOf(
  maxHtmlChars: number,
  url: URL,
  status: number,
  statusText: string,
  contentTypeHeader: string | undefined,
  body: Buffer,
): Promise<FetchedPage> {
  const contentType = (contentTypeHeader ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType ? !isTextType(contentType) : !looksLikeText(body)) {
    throw new WebFetchError(
      `${url.href} is ${contentType || "binary content"} (${formatBytes(body.length)}); WebFetch reads text pages only (HTML, markdown, plain text, JSON, XML).`,
    );
  }
  const isHtml =
    contentType === "text/html" ||
    contentType === "application/xhtml+xml" ||
    (!contentType && /^\s*<(!doctype html|html)/i.test(body.subarray(0, 512).toString("latin1")));
  const text = decode(body, charsetOf(contentTypeHeader, body, isHtml));
  const base = { url: url.href, status, statusText, contentType: contentType || "text/plain", bytes: body.length };
  if (isHtml) {
    const htmlCut = text.length > maxHtmlChars;
    const converted = await htmlToMarkdown(htmlCut ? text.slice(0, maxHtmlChars) : text, url.href);
    return {
      ...base,
      content: converted.markdown,
      isMarkdown: false,
      ...(converted.title ? { title: converted.title } : {}),
      ...(htmlCut ? { htmlCut } : {}),
    };
  }
  const isMarkdown =
    contentType === "text/markdown" ||
    contentType === "text/x-markdown" ||
    (contentType === "text/plain" && /\.(md|markdown)$/i.test(url.pathname));
  return { ...base, content: text, isMarkdown };
}
