import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolResultBlock, ToolUseBlock } from "../../../src/messages/types.js";
import { runTools } from "../../../src/orchestration/run-tools.js";
import { checkBashCommandPermission, preloadBashAnalysis } from "../../../src/permissions/bash/check.js";
import { emptyPermissionContext } from "../../../src/tool/permission-types.js";
import { toolInputJSONSchema } from "../../../src/tool/schema.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { builtInTools } from "../../../src/tools/registry.js";
import { allowAll, createSession, type Session, text } from "./harness.js";

let session: Session;
beforeEach(() => {
  session = createSession();
});
afterEach(async () => {
  await session.cleanup();
});

async function runTurn(blocks: ToolUseBlock[]): Promise<ToolResultBlock[]> {
  const results: ToolResultBlock[] = [];
  for await (const update of runTools(blocks, undefined, session.context, allowAll)) {
    if (update.type === "result") results.push(update.outcome.result);
  }
  return results;
}

const call = (id: string, input: Record<string, unknown>): ToolUseBlock => ({
  type: "tool_use",
  id,
  name: "Bash",
  input,
});

describe("Bash through the tool executor", () => {
  it("persists output above 30,000 characters with a preview", async () => {
    const [result] = await runTurn([call("t1", { command: "seq 1 20000" })]);
    expect(text(result!)).toContain("<persisted-output>");
    expect(text(result!).length).toBeLessThan(30_000);
  });

  it("a real failure cancels the Bash calls after it; grep finding nothing does not", async () => {
    const ok = await runTurn([
      call("a1", { command: "grep nothing-here /dev/null" }),
      call("a2", { command: "echo still-runs" }),
    ]);
    expect(ok.map((r) => r.is_error)).toEqual([undefined, undefined]);
    expect(text(ok[1]!)).toBe("still-runs");

    const failed = await runTurn([call("b1", { command: "exit 3" }), call("b2", { command: "echo never" })]);
    expect(failed[0]!.is_error).toBe(true);
    expect(failed[1]!.is_error).toBe(true);
    expect(text(failed[1]!)).not.toBe("never");
  });

  it("explains a git failure on a stale index.lock", async () => {
    execFileSync("git", ["init", "-q"], { cwd: session.project });
    writeFileSync(join(session.project, ".git", "index.lock"), "");
    writeFileSync(join(session.project, "a.txt"), "a");
    const [result] = await runTurn([call("g1", { command: "git add a.txt" })]);
    expect(result!.is_error).toBe(true);
    expect(text(result!)).toContain("a crashed one left the lock behind");
  });
});

describe("Bash tool definition", () => {
  it("is registered with TaskOutput and TaskStop", () => {
    const names = builtInTools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["Bash", "TaskOutput", "TaskStop"]));
    expect(names.indexOf("Bash")).toBe(names.indexOf("Edit") + 1);
    const stop = builtInTools().find((tool) => tool.name === "TaskStop");
    expect(stop?.aliases).toContain("KillShell");
    expect(stop && toolInputJSONSchema(stop).required).toEqual(["task_id"]);
  });

  it("offers the model command, timeout, description, run_in_background and dangerouslyDisableSandbox", () => {
    const schema = toolInputJSONSchema(BashTool);
    expect(Object.keys(schema.properties ?? {})).toEqual([
      "command",
      "timeout",
      "description",
      "run_in_background",
      "dangerouslyDisableSandbox",
    ]);
    expect(schema.required).toEqual(["command"]);
  });

  it("is read-only and concurrency-safe only for commands the shell analysis proves read-only", async () => {
    await preloadBashAnalysis();
    expect(BashTool.isReadOnly({ command: "ls -la && git status" })).toBe(true);
    expect(BashTool.isConcurrencySafe({ command: "ls -la && git status" })).toBe(true);
    expect(BashTool.isReadOnly({ command: "rm -rf build" })).toBe(false);
    expect(BashTool.isConcurrencySafe({ command: "ls; touch x" })).toBe(false);
    // A cd moves the shell for the next call, so it never runs beside other calls.
    expect(BashTool.isReadOnly({ command: "cd src && ls" })).toBe(true);
    expect(BashTool.isConcurrencySafe({ command: "cd src && ls" })).toBe(false);
    expect(BashTool.isConcurrencySafe({ command: "pushd src" })).toBe(false);
  });

  it("checks permission against the shell's current directory, not the session's", async () => {
    await session.run("Bash", { command: "mkdir -p inner && cd inner" });
    const inner = join(session.project, "inner");
    expect(session.context.getAppState().bashCwd).toBe(inner);
    const permissionContext = session.context.getAppState().toolPermissionContext;
    const command = "ls ..";
    const result = await BashTool.checkPermissions({ command }, session.context);
    expect(result).toEqual(await checkBashCommandPermission({ command, cwd: inner, permissionContext }));
  });

  it("teaches dedicated tools, quoting, && chains, no interactive commands and background servers", async () => {
    const prompt = await BashTool.prompt({ tools: [], permissionContext: emptyPermissionContext("/p"), cwd: "/p" });
    for (const phrase of [
      "Read files with Read",
      "Grep",
      "Glob",
      "Edit",
      "Quote paths",
      "&&",
      "Interactive programs",
      "run_in_background: true",
    ]) {
      expect(prompt).toContain(phrase);
    }
    expect(prompt).not.toContain("Sandbox:");
    const sandboxed = await BashTool.prompt({
      tools: [],
      permissionContext: emptyPermissionContext("/p"),
      cwd: "/p",
      sandboxSettings: { enabled: true },
    });
    expect(sandboxed).toContain("Sandbox: commands run in a sandbox");
    expect(sandboxed).toContain("no network access");
    expect(sandboxed).toContain("Unix sockets cannot be opened");
    const limited = await BashTool.prompt({
      tools: [],
      permissionContext: emptyPermissionContext("/p"),
      cwd: "/p",
      sandboxSettings: { enabled: true, allowedDomains: ["github.com", "*.npmjs.org"] },
    });
    expect(limited).toContain("The network is limited to these hosts: github.com, *.npmjs.org");
    expect(limited).not.toContain("no network access");
  });
});
