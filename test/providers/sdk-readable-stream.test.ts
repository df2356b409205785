// The stand-in for `globalThis.ReadableStream` that the built CLI gives the provider SDKs (see
// src/providers/sdk-readable-stream.ts): it must answer their questions as the real one does, and
// build real streams, without loading Node's web streams until a stream is really made. The
// built CLI's session that loads none is checked in test/architecture/session-modules.test.ts.
import { spawnSync } from "node:child_process";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isWebReadableStream, SdkReadableStream } from "../../src/providers/sdk-readable-stream.js";
import { builtFixture } from "../helpers/built.js";

describe("SdkReadableStream", () => {
  it("passes the SDKs' guards: truthy, and not undefined to typeof", () => {
    expect(Boolean(SdkReadableStream)).toBe(true);
    expect(typeof SdkReadableStream).not.toBe("undefined");
  });

  it("answers instanceof like Node's ReadableStream for streams and for other bodies", () => {
    expect(new ReadableStream() instanceof SdkReadableStream).toBe(true);
    const [a, b] = new ReadableStream().tee();
    expect(a instanceof SdkReadableStream && b instanceof SdkReadableStream).toBe(true);
    for (const other of ["text", new Uint8Array(2), Readable.from(["x"]), { getReader() {} }, null, undefined]) {
      expect(other instanceof SdkReadableStream).toBe(false);
      expect(isWebReadableStream(other)).toBe(false);
    }
  });

  it("constructs Node's real ReadableStream, and makes one from an iterable", async () => {
    const made = new SdkReadableStream({
      start(controller) {
        controller.enqueue("a");
        controller.close();
      },
    }) as unknown as ReadableStream<string>;
    expect(made).toBeInstanceOf(ReadableStream);
    expect(await made.getReader().read()).toEqual({ done: false, value: "a" });
    const from = SdkReadableStream.from(["x", "y"]);
    const read: unknown[] = [];
    for await (const part of from as unknown as AsyncIterable<unknown>) read.push(part);
    expect(read).toEqual(["x", "y"]);
  });

  it("answers instanceof without loading Node's web streams", () => {
    const child = spawnSync(process.execPath, [builtFixture("providers/fixtures/readable-stream-probe.ts")], {
      encoding: "utf8",
    });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ answer: false, loaded: false });
  });
});
