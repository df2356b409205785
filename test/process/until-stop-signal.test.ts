// A server told to stop by SIGTERM closes and exits 0, even when signal-exit (which ink loads,
// sometimes after the server started) is listening too: it re-sends the signal to the process
// when it finds itself the last listener, and that killed `warden mcp serve` mid-close.
import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { builtFixture } from "../helpers/built.js";

it("resolves on SIGTERM and lets the caller close and exit 0 with signal-exit loaded after it", async () => {
  const proc = spawn(process.execPath, [builtFixture("process/fixtures/stop-signal-server.ts")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  proc.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    // "close", not "exit": the last output is read by then.
    proc.once("close", (code, signal) => r({ code, signal })),
  );
  await new Promise<void>((ready, fail) => {
    proc.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("ready")) ready();
    });
    proc.once("exit", () => fail(new Error(`exited before ready: ${err}`)));
  });
  proc.kill("SIGTERM");
  expect(await exited, err).toEqual({ code: 0, signal: null });
  expect(out).toContain("closed");
}, 20_000);
