// The response providerFetch (./http-fetch.ts) hands the provider SDKs: what they read of a fetch
// Response (status, headers, the streamed body, text/json for errors and plain calls, clone for
// their middleware), without Node's global Response, whose first use loads undici (see
// ./sdk-headers.ts for what that costs a session).
import { NodeResponseBody } from "./response-body.js";
import { Headers } from "./sdk-headers.js";

/** Straight from Node's stream as providerFetch gives it, or a web stream (a clone's). */
type ResponseBody = NodeResponseBody | ReadableStream<Uint8Array>;

export interface SdkResponseInit {
  status: number;
  statusText: string;
  headers: Iterable<readonly [string, string]>;
  url: string;
}

export class SdkResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected = false;
  readonly type = "basic";
  #body: ResponseBody | null;
  #used = false;

  constructor(body: ResponseBody | null, init: SdkResponseInit) {
    this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText;
    this.ok = init.status >= 200 && init.status <= 299;
    this.headers = new Headers(init.headers);
    this.url = init.url;
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  get body(): ResponseBody | null {
    return this.#body;
  }

  /** True once the body has been read whole or its reading has begun (a locked stream). */
  get bodyUsed(): boolean {
    return this.#used || (this.#body?.locked ?? false);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#readAll();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    // Decoded as fetch does: UTF-8, a byte order mark dropped, bad bytes replaced.
    return new TextDecoder().decode(await this.#readAll());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** A second response over the same bytes: the body is split in two streams (tee), as fetch does. */
  clone(): SdkResponse {
    if (this.bodyUsed) throw new TypeError("Response.clone: the body has already been read");
    let cloneBody: ReadableStream<Uint8Array> | null = null;
    if (this.#body) [this.#body, cloneBody] = this.#body.tee();
    const init = { status: this.status, statusText: this.statusText, headers: this.headers, url: this.url };
    return new SdkResponse(cloneBody, init);
  }

  async #readAll(): Promise<Uint8Array> {
    if (this.bodyUsed) throw new TypeError("Response: the body has already been read");
    this.#used = true;
    if (!this.#body) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    if (this.#body instanceof NodeResponseBody) {
      for await (const part of this.#body) parts.push(part);
      return Buffer.concat(parts);
    }
    const reader = this.#body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    return Buffer.concat(parts);
  }
}
