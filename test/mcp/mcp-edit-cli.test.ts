// `warden mcp add | remove | get | approve` through the real CLI, in the shapes of Claude Code's
// `claude mcp` commands: the files they write, the errors they refuse with, and a project server
// approved on the command line that then starts in a session. Also: `mcp list` shows each
// server's transport even when it does not start, `mcp serve --help`, and a bad --mcp-config
// stopping `-p` with exit 2 like a bad --settings.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { stdioServerConfig } from "./fixtures.js";

function place() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-mcp-edit-")));
  const home = join(base, "home");
  const repo = join(base, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = { WARDEN_MANAGED_SETTINGS: join(home, "no-policy.json") };
  const warden = (...args: string[]) => runCli(args, { home, processCwd: repo, env });
  const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  return { home, repo, warden, json };
}

describe("warden mcp add / get / remove", { timeout: 120_000 }, () => {
  it("writes stdio, http and sse servers in each scope's file, in Claude Code's shapes", async () => {
    const { home, repo, warden, json } = place();
    const stdio = await warden(
      "mcp",
      "add",
      "-e",
      "TOKEN=abc",
      "-e",
      "MODE=fast",
      "files",
      "--",
      "npx",
      "-y",
      "server",
      "/tmp",
    );
    expect(stdio.code, stdio.stderr).toBe(0);
    expect(stdio.stdout).toContain("Added stdio MCP server files with command: npx -y server /tmp to local config");
    expect(json(join(repo, ".warden", "settings.local.json")).mcpServers).toEqual({
      files: { type: "stdio", command: "npx", args: ["-y", "server", "/tmp"], env: { TOKEN: "abc", MODE: "fast" } },
    });

    const http = await warden(
      "mcp",
      "add",
      "--transport",
      "http",
      "--scope",
      "user",
      "api",
      "https://mcp.example.com/mcp",
      "-H",
      "Authorization: Bearer secret-token",
      "-H",
      "X-Team: core",
    );
    expect(http.code, http.stderr).toBe(0);
    expect(json(join(home, "settings.json")).mcpServers).toEqual({
      api: {
        type: "http",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer secret-token", "X-Team": "core" },
      },
    });

    const sse = await warden("mcp", "add", "-t", "sse", "-s", "project", "events", "https://events.example.com/sse");
    expect(sse.code, sse.stderr).toBe(0);
    expect(json(join(repo, ".mcp.json")).mcpServers).toEqual({
      events: { type: "sse", url: "https://events.example.com/sse" },
    });
    expect(sse.stdout).toContain("warden mcp approve events");

    const got = await warden("mcp", "get", "files");
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain("Scope: local");
    expect(got.stdout).toContain("Command: npx");
    expect(got.stdout).toContain("Environment: TOKEN, MODE");
    // Values are often credentials: `get` names them, never prints them.
    expect(got.stdout).not.toContain("abc");
    const gotJson = await warden("mcp", "get", "api", "--json");
    expect(gotJson.stdout).not.toContain("secret-token");
    expect(JSON.parse(gotJson.stdout)).toMatchObject({
      scope: "user",
      config: { type: "http", headers: { Authorization: "(set)", "X-Team": "(set)" } },
    });

    const removed = await warden("mcp", "remove", "files");
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("Removed MCP server files from local config");
    expect(json(join(repo, ".warden", "settings.local.json")).mcpServers).toEqual({});
    const removedUser = await warden("mcp", "remove", "api", "--scope", "user");
    expect(removedUser.code, removedUser.stderr).toBe(0);
    expect(json(join(home, "settings.json")).mcpServers).toEqual({});
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    const { repo, warden } = place();
    const settings = join(repo, ".warden", "settings.local.json");
    writeFileSync(join(repo, "keep.txt"), "x");
    const cases: Array<[string[], number, RegExp]> = [
      [["mcp", "add", "x", "-e", "NOEQUALS", "--", "cmd"], 2, /-e takes KEY=VALUE/],
      [["mcp", "add", "x", "--scope", "global", "--", "cmd"], 2, /--scope must be local, project or user/],
      [["mcp", "add", "x", "--transport", "ws", "u"], 2, /--transport must be stdio, http or sse/],
      [["mcp", "add", "x"], 2, /needs a command/],
      [["mcp", "add", "-t", "http", "x", "-H", "no colon", "https://a.example/mcp"], 2, /-H takes "Name: value"/],
      [["mcp", "add", "-t", "http", "x", "ftp://a.example/mcp"], 1, /url must be http\(s\)/],
      [["mcp", "add", "bad name!", "--", "cmd"], 1, /may only use letters/],
      [["mcp", "remove", "nothing"], 1, /no MCP server named "nothing"/],
      [["mcp", "get", "nothing"], 2, /no MCP server named "nothing"/],
    ];
    for (const [args, code, message] of cases) {
      const run = await warden(...args);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(code);
      expect(run.stderr).toMatch(message);
    }
    expect(() => readFileSync(settings)).toThrow();

    expect((await warden("mcp", "add", "dup", "--", "one")).code).toBe(0);
    const again = await warden("mcp", "add", "dup", "--", "two");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists in local config/);
    expect(readFileSync(settings, "utf8")).toContain('"one"');
    expect(readFileSync(settings, "utf8")).not.toContain('"two"');

    // A file that is not JSON is left as it is.
    writeFileSync(join(repo, ".mcp.json"), "{ broken");
    const broken = await warden("mcp", "add", "-s", "project", "p", "--", "cmd");
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/not valid JSON; not changing it/);
    expect(readFileSync(join(repo, ".mcp.json"), "utf8")).toBe("{ broken");
  });
});

describe("warden mcp approve", { timeout: 120_000 }, () => {
  it("approves a project server so that it starts, and `mcp list` shows every server's type even when it does not start", async () => {
    const { repo, warden, json } = place();
    writeFileSync(
      join(repo, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          demo: stdioServerConfig("demo-server.ts"),
          remote: { type: "http", url: "https://remote.example.com/mcp" },
          stream: { type: "sse", url: "https://stream.example.com/sse" },
        },
      }),
    );
    // Trusted for its current files; approving is the user's own change and keeps it trusted.
    expect((await warden("trust", repo, "--yes")).code).toBe(0);
    const before = await warden("mcp", "list");
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/^demo\s+stdio\s+disabled\s+-/m);
    expect(before.stdout).toMatch(/^remote\s+http\s+disabled\s+-/m);
    expect(before.stdout).toMatch(/^stream\s+sse\s+disabled\s+-/m);

    const approved = await warden("mcp", "approve", "demo");
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain("Approved project MCP server demo");
    expect(json(join(repo, ".warden", "settings.local.json")).enabledMcpjsonServers).toEqual(["demo"]);
    const after = await warden("mcp", "list");
    expect(after.stdout).toMatch(/^demo\s+stdio\s+connected\s+\d+ tools/m);
    expect(after.stdout).toMatch(/^remote\s+http\s+disabled/m);

    const notProject = await warden("mcp", "approve", "nothing-here");
    expect(notProject.code).toBe(2);
  });
});

describe("command-line input that is wrong stops with exit 2", { timeout: 120_000 }, () => {
  it("a bad --mcp-config, --settings, --model or replay script, before anything starts", async () => {
    const { repo, warden } = place();
    writeFileSync(join(repo, "malformed.jsonl"), '{"content": "not blocks"}\n');
    const cases: Array<[string[], RegExp]> = [
      [["--mcp-config", "{not json"], /bad --mcp-config: --mcp-config: invalid JSON/],
      [["--mcp-config", join(repo, "missing.json")], /bad --mcp-config: .*missing\.json: file not found/],
      [["--mcp-config", '{"mcpServers":{"s":{"command":""}}}'], /server "s": command: command must not be empty/],
      [["--settings", "{oops"], /settings cannot be read safely/],
      [["--settings", join(repo, "nope.json")], /nope\.json: file not found/],
      [["--model", "nosuch:model"], /unknown provider "nosuch"/],
      [["--model", `replay:${join(repo, "absent.jsonl")}`], /no such file/],
      [["--model", `replay:${join(repo, "malformed.jsonl")}`], /must be an array of blocks/],
    ];
    for (const [args, message] of cases) {
      const model = args.includes("--model") ? [] : ["--model", `replay:${join(repo, "malformed.jsonl")}`];
      const run = await warden("-p", "hi", ...model, ...args);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });

  it("`warden mcp serve --help` and `warden mcp add --help` print the usage", async () => {
    const { warden } = place();
    for (const sub of ["serve", "list", "add"]) {
      const run = await warden("mcp", sub, "--help");
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("warden mcp add");
    }
  });
});
