// `warden mcp serve` driven by the SDK's own client, as any MCP client would: over stdio and over
// streamable HTTP, with the permission engine deciding each call.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
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

  it("saves an oversized result to a file and gives the client a preview with its path, as a session does", async () => {
    const { client } = await stdioClient();
    try {
      const big = await client.callTool({ name: "Bash", arguments: { command: "seq 1 300000" } });
      expect(big.isError, text(big)).toBeFalsy();
      const preview = text(big);
      expect(preview).toContain("<persisted-output>");
      expect(preview.length).toBeLessThan(10_000);
      const saved = preview.match(/saved to: (\S+)/)?.[1] as string;
      expect((await readFile(saved, "utf8")).trimEnd().split("\n")).toHaveLength(300_000);
      // The client can read the rest through the server, in parts.
      const tail = await client.callTool({ name: "Read", arguments: { file_path: saved, offset: 299_999, limit: 2 } });
      expect(text(tail)).toContain("300000");
    } finally {
      await client.close();
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

  it("takes every word after --allowedTools up to the next flag, as a session does", async () => {
    const { client } = await stdioClient("--allowedTools", "Edit", "Write", "--permission-mode", "default");
    try {
      const write = await client.callTool({
        name: "Write",
        arguments: { file_path: join(project, "second-rule.txt"), content: "the second word's rule\n" },
      });
      expect(write.isError, text(write)).toBeFalsy();
      expect(await readFile(join(project, "second-rule.txt"), "utf8")).toBe("the second word's rule\n");
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

interface HttpServe {
  url: string;
  count: number;
  token: string;
  stop(): Promise<number | null>;
}

/** Starts `warden mcp serve --port 0` and waits for the URL and token lines on stderr. */
async function serveHttp(...args: string[]): Promise<HttpServe> {
  const child = spawn(process.execPath, cliArgs("--cwd", project, "--port", "0", ...args), {
    env: env(),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<number | null>((r) => child.once("exit", r));
  const announced = await new Promise<{ url: string; count: number; token: string }>((resolve, reject) => {
    let seen = "";
    child.stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const served = /serving (\d+) tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen);
      const token = /token (\S+) \(send it as 'Authorization: Bearer <token>'\)/.exec(seen);
      if (served && token) resolve({ url: served[2] as string, count: Number(served[1]), token: token[1] as string });
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${seen}`)));
  });
  return {
    ...announced,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
});

/** One raw POST of an initialize request with exactly these headers; its status. */
function postStatus(url: string, headers: Record<string, string>, path = "/mcp"): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

const authed = (token: string) => ({
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});

describe("warden mcp serve over streamable HTTP", () => {
  it("serves on 127.0.0.1 to an SDK client that sends the printed token", async () => {
    const server = await serveHttp();
    try {
      const client = new Client({ name: "http-client", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), authed(server.token)));
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toContain("Read");
      // The count it announces is the number of tools a client gets.
      expect(server.count).toBe(listed.length);
      const read = await client.callTool({ name: "Read", arguments: { file_path: join(project, "notes.txt") } });
      expect(text(read)).toContain("alpha");
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 30_000);

  it("refuses every request without the token (401), however the credential is spelled", async () => {
    const server = await serveHttp();
    try {
      const host = new URL(server.url).host;
      const { token } = server;
      const base = { host };
      // The SDK client with no token cannot even initialize.
      const bare = new Client({ name: "no-token", version: "1.0.0" });
      await expect(bare.connect(new StreamableHTTPClientTransport(new URL(server.url)))).rejects.toThrow();
      const attempts: Record<string, string>[] = [
        {},
        { authorization: "" },
        { authorization: "Bearer" },
        { authorization: "Bearer " },
        { authorization: `Bearer ${token.slice(0, -1)}` },
        { authorization: `Bearer ${token}x` },
        { authorization: `Bearer ${token.slice(0, 16)}` },
        { authorization: `Bearer ${token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase()}` },
        { authorization: `Basic ${Buffer.from(`user:${token}`).toString("base64")}` },
        { authorization: token },
        { authorization: `Token ${token}` },
        { authorization: `Bearer ${token} ${token}` },
        { "x-api-key": token },
        { cookie: `token=${token}` },
      ];
      for (const headers of attempts) {
        expect(await postStatus(server.url, { ...base, ...headers }), JSON.stringify(headers)).toBe(401);
      }
      // A token in the query string is not a credential either, and other paths are refused too.
      expect(await postStatus(server.url, base, `/mcp?token=${token}`)).toBe(401);
      expect(await postStatus(server.url, base, "/other")).toBe(401);
      // The right token, however the scheme's case, is let through (200 for initialize).
      expect(await postStatus(server.url, { ...base, authorization: `Bearer ${token}` })).toBe(200);
      expect(await postStatus(server.url, { ...base, authorization: `bearer ${token}` })).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 30_000);

  it("refuses a foreign Host or Origin even with the token (403: DNS rebinding, cross-site pages)", async () => {
    const server = await serveHttp();
    try {
      const { host, port } = new URL(server.url);
      const authorization = `Bearer ${server.token}`;
      for (const foreignHost of ["evil.example:80", "evil.example", `evil.example:${port}`, `127.0.0.2:${port}`]) {
        expect(await postStatus(server.url, { host: foreignHost, authorization }), foreignHost).toBe(403);
      }
      for (const origin of [
        "http://evil.example",
        `http://evil.example:${port}`,
        "null",
        `https://${host}`,
        `http://${host}.evil.example`,
      ]) {
        expect(await postStatus(server.url, { host, origin, authorization }), origin).toBe(403);
      }
      // The server's own origin (a page it served, were there one) passes.
      expect(await postStatus(server.url, { host, origin: `http://${host}`, authorization })).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 30_000);

  it("ends with 0 when stopped the moment it announces itself (the stop is heard before the announcement)", async () => {
    // A client that sends SIGTERM as soon as it reads the token line raced the listener: about one
    // start in three ended by the signal itself. Five starts catch that almost always.
    for (let start = 0; start < 5; start++) {
      const server = await serveHttp();
      expect(await server.stop(), `start ${start}`).toBe(0);
    }
  }, 30_000);

  it("writes the token owner-only to --token-file, and each server has its own", async () => {
    const tokenFile = join(dir, "token");
    // A file that was there with a wider mode is narrowed.
    await writeFile(tokenFile, "old\n", { mode: 0o644 });
    const first = await serveHttp("--token-file", tokenFile);
    let firstToken: string;
    try {
      expect((await readFile(tokenFile, "utf8")).trim()).toBe(first.token);
      expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
      expect(first.token.length).toBeGreaterThanOrEqual(32);
      firstToken = first.token;
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await serveHttp();
    try {
      expect(second.token).not.toBe(firstToken);
      const authorization = `Bearer ${firstToken}`;
      expect(await postStatus(second.url, { host: new URL(second.url).host, authorization })).toBe(401);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 30_000);

  it("does not follow a symbolic link planted at the --token-file path", async () => {
    const target = join(dir, "elsewhere.txt");
    await writeFile(target, "keep\n");
    const link = join(dir, "token-link");
    await symlink(target, link);
    const child = spawn(process.execPath, cliArgs("--cwd", project, "--port", "0", "--token-file", link), {
      env: env(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).not.toBe(0);
    expect(await readFile(target, "utf8")).toBe("keep\n");
  }, 30_000);
});
