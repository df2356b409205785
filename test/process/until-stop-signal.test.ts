// A server told to stop by SIGTERM closes and exits 0, even when signal-exit (which ink loads,
// sometimes after the server started) is listening too: it re-sends the signal to the process
// when it finds itself the last listener, and that killed `warden mcp serve` mid-close.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const moduleUrl = new URL("../../src/process/until-stop-signal.ts", import.meta.url).href;

const child = `
import { createRequire } from "node:module";
import { untilStopSignal } from ${JSON.stringify(moduleUrl)};
// The server's open socket, which keeps the process alive until it closes.
const serving = setInterval(() => {}, 1000);
const waiting = untilStopSignal();
// Loaded after the server is listening, as a lazily imported dependency would be.
createRequire(${JSON.stringify(join(root, "package.json"))})("signal-exit")(() => {});
process.stdout.write("ready\\n");
const release = await waiting;
await new Promise((r) => setTimeout(r, 50));
clearInterval(serving);
release();
process.stdout.write("closed\\n");
`;

it("resolves on SIGTERM and lets the caller close and exit 0 with signal-exit loaded after it", async () => {
  const proc = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", child], {
    cwd: root,
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
