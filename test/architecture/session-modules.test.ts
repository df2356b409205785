// What of Node's own a headless session loads (issue 19). It never loads undici (the module behind
// the global fetch, Headers, Response and FormData): ~25 ms of CPU and ~3 MB before the first
// request when the provider SDKs touched the global Headers. And before its first request it loads
// none of the modules only later work needs (a spawn, an https connection, a compressed response, a
// DNS lookup): the build hands the session's code stand-ins that load them at first use
// (scripts/cached-chunks.mjs). Nor does it load Node's web ReadableStream (~3-6 ms of CPU): the
// SDKs get a stand-in for the global (src/providers/sdk-readable-stream.ts) and read response
// bodies straight from Node's stream (src/providers/response-body.ts). The built CLI, because the
// build is what does all this (scripts/build.mjs, src/providers/sdk-headers.ts); a preloaded
// probe reports what Node loaded.
// Runs dist/, which the tests' global setup keeps current (test/setup/build.ts).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../helpers/run-process.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";

const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const probe = fileURLToPath(new URL("./fixtures/report-modules.cjs", import.meta.url));

/**
 * Loaded only when a session needs them, which "read a file and answer" does not before its
 * request. perf_hooks comes with the global `performance` at its first use (~2 ms): the session's
 * clocks read process.hrtime instead.
 */
const LATER = ["child_process", "dgram", "https", "tls", "zlib", "dns/promises", "perf_hooks"];

let server: ScriptedModelServer;
let dir: string;
beforeEach(async () => {
  server = await startScriptedModelServer();
  dir = await realpath(await mkdtemp(join(tmpdir(), "warden-undici-free-")));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function runBuilt(model: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WARDEN_HOME: join(dir, "home"),
    HOME: join(dir, "home"),
    XDG_CACHE_HOME: join(dir, "cache"),
    ANTHROPIC_API_KEY: "test",
    ANTHROPIC_BASE_URL: server.anthropicBaseURL,
    OPENAI_API_KEY: "test",
    OPENAI_BASE_URL: server.openaiBaseURL,
  };
  return runProcess(process.execPath, ["-r", probe, cli, "-p", "read it", "--model", model], { cwd: dir, env });
}

describe.skipIf(!existsSync(cli))("a headless session of the built CLI", () => {
  for (const model of ["anthropic:claude-test", "openai:gpt-test"]) {
    it(`talks to the model without loading undici or web streams (${model.split(":")[0]})`, async () => {
      await writeFile(join(dir, "notes.txt"), "the notes\n");
      server.enqueue(
        reply()
          .text("Reading.")
          .tool("Read", { file_path: join(dir, "notes.txt") }),
        reply().text("The notes say: the notes."),
      );
      const result = await runBuilt(model);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("The notes say");
      // The tool's result reached the model, so the whole round went through the SDK.
      expect(JSON.stringify(server.requests[1]?.body)).toContain("the notes");
      expect(result.stderr).toContain("undici-loaded=false");
      expect(result.stderr).toContain("web-readable-stream-loaded=false");
      // The Anthropic path's chunks are the ones built with stand-ins (scripts/cached-chunks.mjs).
      if (model.startsWith("anthropic:")) {
        const before = /modules-before-request=(.*)/.exec(result.stderr)?.[1]?.split(",") ?? [];
        expect(before).toContain("http");
        expect(before.filter((name) => LATER.includes(name))).toEqual([]);
      }
    }, 60_000);
  }

  it("still runs a command after its stand-in for node:child_process loaded the real module", async () => {
    server.enqueue(
      reply().tool("Bash", { command: "echo from-a-child-process", description: "echo" }),
      reply().text("The command ran."),
    );
    const result = await runBuilt("anthropic:claude-test");
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("from-a-child-process");
  }, 60_000);

  it("still reports undici when something does load it (the probe can fail)", async () => {
    const child = spawn(process.execPath, ["-r", probe, "-e", "globalThis.Headers"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toContain("undici-loaded=true");
  });

  it("still reports Node's web ReadableStream when something does load it", async () => {
    const { stderr } = await runProcess(process.execPath, ["-r", probe, "-e", "globalThis.ReadableStream"], {
      cwd: dir,
      env: process.env,
    });
    expect(stderr).toContain("web-readable-stream-loaded=true");
  });
});
