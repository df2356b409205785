// A response body as it arrives on Node's stream, for the fetch of ./http-fetch.ts.
//
// The provider SDKs read a streamed body with for-await (their shims take `body[Symbol.asyncIterator]`
// when it is there) and nothing else of it on the model's path. Handing them Node's web
// ReadableStream cost its first use (loading Node's web streams, ~3-6 ms of CPU) and, on every
// response, a stream, a reader and a controller between the socket and the SSE parser. So the
// body is read straight from Node's stream here, and a web ReadableStream is made only when
// someone asks for one (getReader, tee: a fetch Response's body for other callers, the SDKs'
// middleware). Either way the bytes come through one reader with one set of rules: an abort or a
// broken connection errors the body (what was buffered is dropped), a consumer that stops early
// closes the connection, and at most one chunk waits unread before Node's stream is paused.
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

interface Waiter {
  resolve(result: IteratorResult<Uint8Array>): void;
  reject(error: unknown): void;
}

/** The body's chunks, in order, for a single consumer; listens from construction, like fetch. */
class BodyChunks implements AsyncIterator<Uint8Array> {
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private waiter: Waiter | undefined;
  private readonly onAbort = () => this.fail(abortReason(this.signal!));

  constructor(
    private readonly source: Readable,
    private readonly message: IncomingMessage,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal?.aborted) {
      this.fail(abortReason(signal));
      return;
    }
    signal?.addEventListener("abort", this.onAbort, { once: true });
    source.on("data", (chunk: Buffer) => {
      if (this.finished) return;
      const waiter = this.waiter;
      if (waiter) {
        this.waiter = undefined;
        waiter.resolve({ done: false, value: chunk });
        return;
      }
      this.chunks.push(chunk);
      source.pause();
    });
    source.on("end", () => {
      if (this.finished) return;
      this.ended = true;
      signal?.removeEventListener("abort", this.onAbort);
      this.settleWaiter();
    });
    source.on("error", (error: Error) =>
      this.fail(new TypeError(`fetch failed: response body: ${error.message}`, { cause: error })),
    );
    // A server that closes the connection mid-body: Node reports "aborted" on the message.
    message.on("close", () => {
      if (!message.complete)
        this.fail(new TypeError("fetch failed: the connection closed before the response body ended"));
    });
  }

  private get finished(): boolean {
    return this.ended || this.failure !== undefined;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    const chunk = this.chunks.shift();
    if (chunk) {
      if (this.chunks.length === 0 && !this.finished) this.source.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.source.resume();
    });
  }

  /** The consumer is done before the end: the rest is not wanted, and the connection is closed. */
  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.finished) {
      this.ended = true;
      this.chunks.length = 0;
      this.signal?.removeEventListener("abort", this.onAbort);
      this.message.destroy();
    }
    return Promise.resolve({ done: true, value: undefined });
  }

  private fail(error: unknown): void {
    if (this.finished) return;
    this.failure = { error };
    this.chunks.length = 0;
    this.signal?.removeEventListener("abort", this.onAbort);
    this.settleWaiter();
    this.message.destroy();
  }

  private settleWaiter(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    if (this.failure) waiter.reject(this.failure.error);
    else waiter.resolve({ done: true, value: undefined });
  }
}

/**
 * The body of one response: read once, with for-await (the SDKs' way, no web streams) or through
 * the web ReadableStream that getReader(), tee() and webStream() make of it on first call.
 */
export class NodeResponseBody {
  private readonly chunks: BodyChunks;
  private taken = false;
  private web: ReadableStream<Uint8Array> | undefined;

  constructor(source: Readable, message: IncomingMessage, signal: AbortSignal | undefined) {
    this.chunks = new BodyChunks(source, message, signal);
  }

  /** True once the body is being read (as a web stream: while that stream is locked). */
  get locked(): boolean {
    return this.web ? this.web.locked : this.taken;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.web) return iterateWithoutRelease(this.web);
    this.take();
    return this.chunks;
  }

  getReader(): ReadableStreamDefaultReader<Uint8Array> {
    return this.webStream().getReader();
  }

  tee(): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return this.webStream().tee();
  }

  cancel(): Promise<void> {
    if (this.web) return this.web.cancel();
    this.taken = true;
    return this.chunks.return().then(() => undefined);
  }

  /** The body as a web ReadableStream (made once; from then on the body is read through it). */
  webStream(): ReadableStream<Uint8Array> {
    if (this.web) return this.web;
    this.take();
    const chunks = this.chunks;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return();
      },
    });
    // Node 20's own async iterator of a web stream, when the stream ends, releases its reader and
    // builds the "released" error through a fresh vm context: ~20 ms on the first response of a
    // process. This iterator reads the same way and never releases.
    Object.defineProperty(stream, Symbol.asyncIterator, { value: () => iterateWithoutRelease(stream) });
    this.web = stream;
    return stream;
  }

  private take(): void {
    if (this.taken) throw new TypeError("Response body: the body is already being read");
    this.taken = true;
  }
}

function iterateWithoutRelease<T>(stream: ReadableStream<T>): AsyncIterableIterator<T> {
  const reader = stream.getReader();
  const iterator: AsyncIterableIterator<T> = {
    next: () => reader.read() as Promise<IteratorResult<T>>,
    async return(value?: unknown) {
      await reader.cancel();
      return { done: true, value: value as T };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
