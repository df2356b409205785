// The `globalThis.ReadableStream` the provider SDKs see in the built CLI (scripts/build.mjs's
// `provider-sdk-globals` plugin puts this in its place in their modules).
//
// Node 20's global ReadableStream is a lazy getter: its first read loads Node's web streams (five
// modules, ~3-6 ms of CPU). The SDKs read it while they build every request, only to ask whether
// the request body is a stream (`body instanceof globalThis.ReadableStream`), which a session's
// JSON bodies never are; and providerFetch hands them response bodies they read with for-await
// (./response-body.ts), not as web streams. So a session that never makes a web stream never
// loads them. Constructing one (an SDK helper that converts a stream) still makes the real thing.

/** Node's own ReadableStream, loaded now (the first call is the one that pays for it). */
function webReadableStream(): typeof globalThis.ReadableStream {
  return globalThis.ReadableStream;
}

/**
 * True for a web ReadableStream, from any realm or polyfill that tags itself as one, without
 * loading Node's (every one of Node's is tagged "ReadableStream").
 */
export function isWebReadableStream(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object ReadableStream]"
  );
}

/**
 * Stands in for the global: truthy and a function (the SDKs' "is there a ReadableStream" guards
 * pass), answers `instanceof` by the tag, and constructs (or `from`s) Node's real one.
 */
export class SdkReadableStream {
  constructor(...args: ConstructorParameters<typeof globalThis.ReadableStream>) {
    // A constructor that returns an object makes `new` evaluate to that object: the real stream.
    // biome-ignore lint/correctness/noConstructorReturn: the stand-in is only a door to the real class
    return new (webReadableStream())(...args);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return isWebReadableStream(value);
  }

  static from(source: Parameters<(typeof globalThis.ReadableStream)["from"]>[0]): globalThis.ReadableStream {
    return webReadableStream().from(source);
  }
}
