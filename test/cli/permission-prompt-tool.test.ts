// `--permission-prompt-tool mcp__server__tool`, as Claude Code users write it in CI: an ask the
// rules leave open goes to that MCP tool (a real stdio server), whose JSON answer allows (with the
// input it rewrote) or refuses; an answer that is not one, or a tool that is not there, refuses.
// Deny rules and read-only calls never reach it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { stdioServerConfig } from "../mcp/fixtures.js";
import { cliProject, resultIn, runScriptedCli, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

function approverConfig(log: string): string {
  const config = stdioServerConfig("approver-server.ts");
  return JSON.stringify({ mcpServers: { auth: { ...config, env: { APPROVER_LOG: log } } } });
}

const COMMANDS = {
  approved: "touch approved.txt",
  forbidden: "touch forbidden.txt",
  garbled: "touch garbled.txt",
  crash: "touch crash.txt",
  denied: "touch denied-by-rule.txt",
  readOnly: "ls",
};

describe("--permission-prompt-tool with an MCP tool", () => {
  it("settles each ask with the tool's answer, and refuses when the answer is not one", async () => {
    const p = cliProject("prompt-tool");
    const log = join(p.home, "approver.log");
    const calls = Object.entries(COMMANDS);
    server().enqueue(...calls.map(([id, command]) => reply().tool("Bash", { command }, { id })), reply().text("done"));
    const run = await runScriptedCli(server(), p, [
      "-p",
      "go",
      "--mcp-config",
      approverConfig(log),
      "--permission-prompt-tool",
      "mcp__auth__approve",
      "--disallowedTools",
      "Bash(touch denied-by-rule.txt)",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const last = server().requests.at(-1) as NonNullable<ReturnType<typeof server>["requests"][number]>;
    // Allowed with the input the tool gave: the rewritten command ran, the original did not.
    expect(resultIn(last, "approved")).toContain("approved:touch approved.txt");
    expect(existsSync(join(p.cwd, "approved.txt"))).toBe(false);
    expect(resultIn(last, "forbidden")).toContain("forbidden by the approver");
    expect(resultIn(last, "garbled")).toMatch(/mcp__auth__approve did not answer with JSON/);
    expect(resultIn(last, "crash")).toMatch(/mcp__auth__approve failed: approver is down/);
    for (const file of ["forbidden.txt", "garbled.txt", "crash.txt", "denied-by-rule.txt"]) {
      expect(existsSync(join(p.cwd, file)), file).toBe(false);
    }
    // The tool was asked exactly about the calls that needed asking, in Claude Code's shape.
    const asked = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(asked).toEqual(
      ["approved", "forbidden", "garbled", "crash"].map((id) => ({
        tool_name: "Bash",
        input: { command: COMMANDS[id as keyof typeof COMMANDS] },
        tool_use_id: id,
      })),
    );
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1) as string);
    expect(result.permission_denials.map((d: { tool_use_id: string }) => d.tool_use_id).sort()).toEqual(
      ["crash", "denied", "forbidden", "garbled"].sort(),
    );
  });

  it("warns when the named tool is not among the session's MCP tools, and refuses", async () => {
    const p = cliProject("prompt-tool-missing");
    server().enqueue(reply().tool("Bash", { command: "touch made.txt" }, { id: "call" }), reply().text("done"));
    const run = await runScriptedCli(server(), p, [
      "-p",
      "go",
      "--mcp-config",
      approverConfig(join(p.home, "approver.log")),
      "--permission-prompt-tool",
      "mcp__auth__aprove",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/--permission-prompt-tool: mcp__auth__aprove is not among .*mcp__auth__approve/);
    expect(resultIn(server().requests.at(-1) as never, "call")).toMatch(/mcp__auth__aprove is not among/);
    expect(existsSync(join(p.cwd, "made.txt"))).toBe(false);
  });

  it("refuses a value that is neither stdio nor an MCP tool's name", async () => {
    const run = await runScriptedCli(server(), cliProject("prompt-tool-bad"), [
      "-p",
      "go",
      "--permission-prompt-tool",
      "approve",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--permission-prompt-tool takes "stdio" .* or an MCP tool's name/);
  });
});
