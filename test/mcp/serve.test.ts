// `warden mcp serve` driven by the SDK's own client, as any MCP client would: over stdio and over
// streamable HTTP, with the permission engine deciding each call.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findToolByName } from "../../src/tool/pool.js";
import { toolInputJSONSchema } from "../../src/tool/schema.js";
import type { AnyTool } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { BUILT_CLI, isAlive } from "./fixtures.js";

let dir: string;
let project: string;
const cliArgs = (...args: string[]) => [BUILT_CLI, "mcp", "serve", ...args];
const env = () => ({
  ...(process.env as Record<string, string>),
  HOME: join(dir, "home"),
  WARDEN_HOME: join(dir, "home", ".warden"),
  WARDEN_MANAGED_SETTINGS: join(dir, "none.json"),
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-mcp-serve-"));
  project = join(dir, "project");
  await mkdir(project, { recursive: true });
  await writeFile(join(project, "notes.txt"), "alpha\nbeta\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function stdioClient(...args: string[]): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs("--cwd", project, ...args),
    env: env(),
    stderr: "pipe",
  });
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
}

describe("warden mcp serve over stdio", () => {
  it("lists the built-in tools with their schemas and read-only/destructive annotations, without ToolSearch", async () => {
    const { client } = await stdioClient();
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["Read", "Write", "Bash"]));
      expect(names).not.toContain("ToolSearch");
      const read = tools.find((t) => t.name === "Read");
      const write = tools.find((t) => t.name === "Write");
      expect(read?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(write?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(read?.inputSchema).toEqual(toolInputJSONSchema(findToolByName(builtInTools(), "Read") as AnyTool));
      expect(read?.description?.length).toBeGreaterThan(20);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("runs an allowed call and denies one that would need approval, with the reason", async () => {
    const { client, transport } = await stdioClient();
    try {
      const read = await client.callTool({ name: "Read", arguments: { file_path: join(project, "notes.txt") } });
      expect(read.isError).toBeFalsy();
      expect(text(read)).toContain("beta");

      const write = await client.callTool({
        name: "Write",
        arguments: { file_path: join(project, "new.txt"), content: "x" },
      });
      expect(write.isError).toBe(true);
      expect(text(write)).toMatch(/not allowed|denied/i);
      expect(text(write)).toMatch(/--allowedTools/);
      await expect(readFile(join(project, "new.txt"))).rejects.toThrow();

      const bash = await client.callTool({ name: "Bash", arguments: { command: `rm -rf ${project}` } });
      expect(bash.isError).toBe(true);
      expect(await readFile(join(project, "notes.txt"), "utf8")).toBe("alpha\nbeta\n");

      const unknown = await client.callTool({ name: "Nope", arguments: {} });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toMatch(/No such tool/);

      const bad = await client.callTool({ name: "Read", arguments: { file_path: 42 } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/file_path/);
    } finally {
      const pid = transport.pid as number;
      await client.close();
      // Closing stdin ends the server process: nothing is left running.
      expect(isAlive(pid)).toBe(false);
    }
  }, 30_000);

  it("lets --allowedTools decide: an allowed Write runs", async () => {
    const { client } = await stdioClient("--allowedTools", "Write");
    try {
      const write = await client.callTool({
        name: "Write",
        arguments: { file_path: join(project, "allowed.txt"), content: "made over MCP\n" },
      });
      expect(write.isError, text(write)).toBeFalsy();
      expect(await readFile(join(project, "allowed.txt"), "utf8")).toBe("made over MCP\n");
    } finally {
      await client.close();
    }
  }, 30_000);

  it("removes tools denied by name from the list", async () => {
    const { client } = await stdioClient("--disallowedTools", "Bash");
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("Bash");
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("warden mcp serve over streamable HTTP", () => {
  it("serves on 127.0.0.1, answers an SDK client, and refuses a foreign Host header", async () => {
    const child = spawn(process.execPath, cliArgs("--cwd", project, "--port", "0"), {
      env: env(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const { url, count } = await new Promise<{ url: string; count: number }>((resolve, reject) => {
        let seen = "";
        child.stderr.on("data", (chunk: Buffer) => {
          seen += chunk.toString();
          const match = /serving (\d+) tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
          if (match) resolve({ url: match[2] as string, count: Number(match[1]) });
        });
        child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${seen}`)));
      });
      const client = new Client({ name: "http-client", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toContain("Read");
      // The count it announces is the number of tools a client gets.
      expect(count).toBe(listed.length);
      const read = await client.callTool({ name: "Read", arguments: { file_path: join(project, "notes.txt") } });
      expect(text(read)).toContain("alpha");
      await client.close();

      const port = new URL(url).port;
      const rebinding = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: "/mcp",
            method: "POST",
            headers: {
              host: "evil.example:80",
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
          },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on("error", reject);
        req.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
          }),
        );
      });
      expect(rebinding).toBe(403);
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  }, 30_000);
});
