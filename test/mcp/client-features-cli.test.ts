// The headless CLI as an MCP client: a server's question is declined with a warning naming it, a
// completion runs on the session's model only for the server settings name (its tokens in the
// result's usage), and the server's log messages appear as `mcp_log` lines with --verbose.
import { execFileSync } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { stdioServerConfig } from "./fixtures.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-mcp-features-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Line = Record<string, unknown> & { type: string; subtype?: string };
const one = { input_tokens: 1, output_tokens: 1 };
const call = (id: string, name: string) => ({
  content: [{ type: "tool_use", id, name, input: {} }],
  usage: one,
});

function resultOf(lines: Line[], id: string): string {
  const block = lines
    .filter((l) => l.type === "user")
    .flatMap((l) => (l.message as { content: Array<Record<string, unknown>> }).content)
    .find((b) => b.type === "tool_result" && b.tool_use_id === id);
  const content = block?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

async function run(name: string, turns: object[], settings: object, cwd?: string) {
  const script = join(dir, `${name}.jsonl`);
  await writeFile(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return runCli(
    [
      "-p",
      "use the asking server",
      "--model",
      `replay:${script}`,
      "--output-format",
      "stream-json",
      "--verbose",
      "--mcp-config",
      JSON.stringify({ mcpServers: { asking: stdioServerConfig("asking-server.ts") } }),
      "--allowedTools",
      "mcp__asking",
      "--settings",
      JSON.stringify(settings),
      ...(cwd ? ["--cwd", cwd] : []),
    ],
    { home: join(dir, `home-${name}`), env: { WARDEN_TOOL_SEARCH: "never" }, ...(cwd && { processCwd: cwd }) },
  );
}

describe("warden -p as an MCP client beyond tools", () => {
  it("declines a question, samples for a named server, counts its tokens, and shows its logs", async () => {
    const turns = [
      call("toolu_1", "mcp__asking__ask_name"),
      call("toolu_2", "mcp__asking__summarize"),
      // The server's sampling request takes this turn.
      { content: [{ type: "text", text: "Green build." }], usage: { input_tokens: 12, output_tokens: 3 } },
      call("toolu_3", "mcp__asking__log_twice"),
      { content: [{ type: "text", text: "done" }], usage: one },
    ];
    const result = await run("allowed", turns, { mcpSamplingServers: ["asking"], mcpLogLevel: "debug" });
    expect(result.code, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout) as Line[];
    expect(JSON.parse(resultOf(lines, "toolu_1"))).toEqual([{ type: "text", text: '{"action":"decline"}' }]);
    expect(result.stderr).toContain('MCP server "asking" asked: What is your name?; declined');
    expect(resultOf(lines, "toolu_2")).toContain("Green build.");
    const final = lines.find((l) => l.type === "result") as unknown as {
      modelUsage: Record<string, { inputTokens: number }>;
    };
    const input = Object.values(final.modelUsage).reduce((sum, m) => sum + m.inputTokens, 0);
    expect(input).toBe(4 + 12);
    const logs = lines.filter((l) => l.type === "system" && l.subtype === "mcp_log");
    expect(logs.map((l) => [l.server, l.level, l.data])).toEqual([
      ["asking", "debug", "a detail"],
      ["asking", "error", "a failure"],
    ]);
  }, 60_000);

  it("refuses sampling for a server no setting names, and sends logs below warning nowhere", async () => {
    const turns = [
      call("toolu_1", "mcp__asking__summarize"),
      call("toolu_2", "mcp__asking__log_twice"),
      { content: [{ type: "text", text: "done" }], usage: one },
    ];
    const result = await run("refused", turns, {});
    expect(result.code, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout) as Line[];
    expect(resultOf(lines, "toolu_1")).toMatch(/sampling request refused/);
    expect(result.stderr).toMatch(/"asking" asked for a completion from the model; refused/);
    const logs = lines.filter((l) => l.type === "system" && l.subtype === "mcp_log");
    expect(logs.map((l) => l.level)).toEqual(["error"]);
  }, 60_000);

  it("offers the worktree as the root after EnterWorktree, the checkout again after ExitWorktree, telling the server each time", async () => {
    const repo = await realpath(await mkdtemp(join(tmpdir(), "warden-roots-repo-")));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("-c", "user.email=t@example.com", "-c", "user.name=T", "commit", "-q", "--allow-empty", "-m", "start");
    const turns = [
      call("toolu_1", "mcp__asking__roots"),
      { content: [{ type: "tool_use", id: "toolu_2", name: "EnterWorktree", input: { name: "feature" } }] },
      call("toolu_3", "mcp__asking__roots"),
      { content: [{ type: "tool_use", id: "toolu_4", name: "ExitWorktree", input: { action: "keep" } }] },
      call("toolu_5", "mcp__asking__roots"),
      { content: [{ type: "text", text: "done" }], usage: one },
    ];
    const result = await run("roots", turns, {}, repo);
    expect(result.code, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout) as Line[];
    const roots = (id: string) =>
      JSON.parse((JSON.parse(resultOf(lines, id)) as Array<{ text: string }>)[0]?.text ?? "null") as {
        roots: Array<{ uri: string }>;
        changes: number;
      };
    const worktree = join(repo, ".worktrees", "feature");
    expect(roots("toolu_1")).toEqual({
      roots: [{ uri: pathToFileURL(repo).href, name: expect.any(String) }],
      changes: 0,
    });
    expect(roots("toolu_3").roots.map((r) => r.uri)).toEqual([pathToFileURL(worktree).href]);
    expect(roots("toolu_3").changes).toBe(1);
    expect(roots("toolu_5").roots.map((r) => r.uri)).toEqual([pathToFileURL(repo).href]);
    expect(roots("toolu_5").changes).toBe(2);
  }, 60_000);
});
