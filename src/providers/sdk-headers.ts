// The `Headers` and `FormData` the provider SDKs see in the built CLI, in place of Node's globals.
//
// Node 20's global Headers, Response, FormData and fetch are lazy getters that load undici, its
// whole HTTP client (http2, TLS, the web fetch machinery): ~60 ms of CPU and ~12 MB of RSS in a
// bare process, ~25 ms and ~3 MB in a session that has loaded most of Node's own modules already.
// The SDKs touch `Headers` and `FormData` while they build every request (buildHeaders, the body's
// `instanceof FormData` check), so a headless session loaded undici before its first request, for
// a case-insensitive map. scripts/build.mjs makes the SDKs' modules import these two names from
// here instead (the `provider-sdk-globals` plugin); the SDKs' fetch is providerFetch
// (./http-fetch.ts), whose responses carry this Headers too, so a session never loads undici.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Leading and trailing HTTP whitespace is dropped from a value, as the Fetch standard does.
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

type HeadersInit = Iterable<readonly [string, string]> | Record<string, string> | HeadersLike;

interface HeadersLike {
  forEach(callback: (value: string, name: string) => void): void;
}

function isHeadersLike(value: unknown): value is HeadersLike {
  return Object.prototype.toString.call(value) === "[object Headers]";
}

function checkedName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name "${text}"`);
  return text.toLowerCase();
}

function checkedValue(value: string): string {
  const text = String(value).replace(EDGE_WHITESPACE, "");
  if (/[\0\r\n]/.test(text)) throw new TypeError("Headers: a header value may not contain NUL, CR or LF");
  return text;
}

/**
 * The Fetch standard's Headers, as far as a client that sends requests and reads responses uses it:
 * names case-insensitive, values combined with ", " (set-cookie kept apart), iteration in name
 * order. `instanceof` accepts any Headers (undici's too), by its tag, so an SDK handed one by a
 * caller still reads it as headers rather than as a plain object.
 */
export class Headers {
  readonly #values = new Map<string, string>();
  readonly #setCookies: string[] = [];

  constructor(init?: HeadersInit | null) {
    if (init === undefined || init === null) return;
    if (isHeadersLike(init)) {
      init.forEach((value, name) => {
        this.append(name, value);
      });
    } else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError("Headers: each header pair must be [name, value]");
        this.append(pair[0], pair[1]);
      }
    } else {
      for (const [name, value] of Object.entries(init as Record<string, string>)) this.append(name, value);
    }
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return isHeadersLike(value);
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const text = checkedValue(value);
    if (key === "set-cookie") this.#setCookies.push(text);
    const existing = this.#values.get(key);
    this.#values.set(key, existing === undefined ? text : `${existing}, ${text}`);
  }

  set(name: string, value: string): void {
    const key = checkedName(name);
    const text = checkedValue(value);
    if (key === "set-cookie") this.#setCookies.splice(0, this.#setCookies.length, text);
    this.#values.set(key, text);
  }

  delete(name: string): void {
    const key = checkedName(name);
    if (key === "set-cookie") this.#setCookies.length = 0;
    this.#values.delete(key);
  }

  get(name: string): string | null {
    return this.#values.get(checkedName(name)) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(checkedName(name));
  }

  getSetCookie(): string[] {
    return [...this.#setCookies];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      if (name === "set-cookie") {
        for (const cookie of this.#setCookies) yield [name, cookie];
      } else {
        yield [name, this.#values.get(name) as string];
      }
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/**
 * The SDKs ask `body instanceof FormData` of every request body, and build one only to upload
 * files (which Warden's Messages calls never do). The check reads the value's tag without loading
 * undici; `new FormData()` still gets Node's own, loading it then.
 */
export const FormData = function FormData(): globalThis.FormData {
  return new globalThis.FormData();
} as unknown as typeof globalThis.FormData;
Object.defineProperty(FormData, Symbol.hasInstance, {
  value: (value: unknown) => Object.prototype.toString.call(value) === "[object FormData]",
});
