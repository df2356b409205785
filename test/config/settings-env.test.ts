// Settings `env` through the real CLI: the variables reach every process the session starts (Bash
// commands, hook commands, MCP stdio servers), from the user's own settings always and from the
// folder's own settings only once the folder is trusted.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { fixturePath } from "../mcp/fixtures.js";

function write(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
}

function setUp() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-env-")));
  const home = join(base, "home");
  const repo = join(base, "repo");
  const hookMarker = join(base, "hook.txt");
  const mcpMarker = join(base, "mcp.txt");
  mkdirSync(join(repo, ".git"), { recursive: true });
  write(join(home, "settings.json"), {
    env: { FROM_USER: "u1", SHARED: "user" },
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: `echo "$FROM_USER:$FROM_PROJECT:$SHARED" > ${hookMarker}` }],
        },
      ],
    },
  });
  write(join(repo, ".warden", "settings.json"), { env: { FROM_PROJECT: "p1", SHARED: "project" } });
  const script = join(base, "script.jsonl");
  write(
    script,
    `${[
      {
        content: [
          {
            type: "tool_use",
            id: "t1",
            name: "Bash",
            input: { command: 'echo "bash:$FROM_USER:$FROM_PROJECT:$SHARED"' },
          },
        ],
      },
      { content: [{ type: "text", text: "done" }] },
    ]
      .map((t) => JSON.stringify(t))
      .join("\n")}\n`,
  );
  const probe = {
    mcpServers: {
      probe: {
        command: "bash",
        args: [
          "-c",
          `echo "$FROM_USER:$FROM_PROJECT:$SHARED" > ${mcpMarker}; exec "${process.execPath}" ${fixturePath("demo-server.ts")}`,
        ],
      },
    },
  };
  const run = (...extra: string[]) =>
    runCli(
      [
        "-p",
        "go",
        "--model",
        `replay:${script}`,
        "--output-format",
        "stream-json",
        "--cwd",
        repo,
        "--allowedTools",
        "Bash",
        "--mcp-config",
        JSON.stringify(probe),
        ...extra,
      ],
      { home, env: { WARDEN_MANAGED_SETTINGS: join(home, "no-policy.json") } },
    );
  const bashOutput = (stdout: string) =>
    jsonLines(stdout)
      .filter((l) => l.type === "user")
      .flatMap((l) => (l.message as { content: Array<{ type: string; content?: unknown }> }).content)
      .filter((b) => b.type === "tool_result")
      .map((b) => (typeof b.content === "string" ? b.content : JSON.stringify(b.content)))
      .join("\n");
  return { run, bashOutput, hookMarker, mcpMarker };
}

describe("settings env", () => {
  it("reaches Bash, hooks and MCP stdio servers from the user's settings, and the folder's only once trusted", async () => {
    const env = setUp();
    const untrusted = await env.run();
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(env.bashOutput(untrusted.stdout)).toContain("bash:u1::user");
    expect(readFileSync(env.hookMarker, "utf8").trim()).toBe("u1::user");
    expect(readFileSync(env.mcpMarker, "utf8").trim()).toBe("u1::user");

    const trusted = await env.run("--trust-project");
    expect(trusted.code, trusted.stderr).toBe(0);
    // The folder's settings outrank the user's, as for every other key.
    expect(env.bashOutput(trusted.stdout)).toContain("bash:u1:p1:project");
    expect(readFileSync(env.hookMarker, "utf8").trim()).toBe("u1:p1:project");
    expect(readFileSync(env.mcpMarker, "utf8").trim()).toBe("u1:p1:project");
    // Two whole sessions, each starting an MCP server under tsx: slow on a busy machine.
  }, 120_000);
});
