// REPL (code mode): a JavaScript program in QuickJS calls the session's real tools on temp files;
// each call goes through the session's permission engine (headless: nobody can approve an ask),
// hooks and result limits, as a direct call does. Unit tier: everything runs in this process.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HookRunner } from "../../../src/hooks/hook-runner.js";
import { toolResultText } from "../../../src/messages/types.js";
import { runToolUse } from "../../../src/orchestration/run-tool-use.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../../src/permissions/index.js";
import type { PermissionRule } from "../../../src/tool/permission-types.js";
import type { AnyTool, ToolUseContext } from "../../../src/tool/types.js";
import { createReplTool } from "../../../src/tools/repl/tool.js";
import { makeProject, type TestProject } from "../helpers.js";

let project: TestProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

function deny(toolName: string, ruleContent?: string): PermissionRule {
  return { source: "session", behavior: "deny", value: { toolName, ...(ruleContent ? { ruleContent } : {}) } };
}

/** A headless session's project with REPL in its pool, and the session's real authority. */
async function session(denyRules: PermissionRule[] = [], codeOnlyTools: AnyTool[] = [], acceptEdits = false) {
  project = await makeProject(denyRules);
  if (acceptEdits) {
    project.context.setAppState((state) => ({
      ...state,
      toolPermissionContext: { ...state.toolPermissionContext, mode: "acceptEdits" },
    }));
  }
  const repl = createReplTool({ codeOnlyTools: () => codeOnlyTools });
  const context: ToolUseContext = {
    ...project.context,
    options: { ...project.context.options, tools: [...project.context.options.tools, repl] },
  };
  const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler() });
  let id = 0;
  const run = async (code: string, extra: Record<string, unknown> = {}) => {
    id += 1;
    const outcome = await runToolUse(
      { type: "tool_use", id: `toolu_repl_${id}`, name: "REPL", input: { code, ...extra } },
      context,
      canUseTool,
      undefined,
    );
    return { text: toolResultText(outcome.result.content), isError: outcome.result.is_error === true };
  };
  return { dir: project.dir, run };
}

describe("REPL", () => {
  it("reads real files through Read and returns only what the program prints", async () => {
    const { dir, run } = await session();
    for (let i = 1; i <= 8; i += 1) await writeFile(join(dir, `f${i}.txt`), `first line of ${i}\nsecond line\n`);
    const { text, isError } = await run(`
      for (let i = 1; i <= 8; i++) {
        const text = await Read({ file_path: ${JSON.stringify(dir)} + "/f" + i + ".txt" });
        const first = text.split("\\n")[0].replace(/^\\s*\\d+[→\\t]/, "");
        print("f" + i + ": " + first);
      }`);
    expect(isError).toBe(false);
    for (let i = 1; i <= 8; i += 1) expect(text).toContain(`f${i}: first line of ${i}`);
    // The files' second lines were read but never printed: they stay out of the result.
    expect(text).not.toContain("second line");
  });

  it("calls Glob and Grep, and Write makes a real file (acceptEdits mode allows it)", async () => {
    const { dir, run } = await session([], [], true);
    await writeFile(join(dir, "a.ts"), "export const needle = 1;\n");
    const { text, isError } = await run(`
      const files = await Glob({ pattern: "*.ts", path: ${JSON.stringify(dir)} });
      const hits = await Grep({ pattern: "needle", path: ${JSON.stringify(dir)}, output_mode: "files_with_matches" });
      await Write({ file_path: ${JSON.stringify(join(dir, "out.txt"))}, content: "written from code" });
      print(files.includes("a.ts"), hits.includes("a.ts"));`);
    expect(text).toContain("true true");
    expect(isError).toBe(false);
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(join(dir, "out.txt"), "utf8")).toBe("written from code");
  });

  it("a refused call throws inside the program with the reason, and the program goes on", async () => {
    const { dir, run } = await session([deny("Read", "./secret.txt")]);
    await writeFile(join(dir, "secret.txt"), "TOP SECRET\n");
    const { text } = await run(`
      try {
        await Read({ file_path: ${JSON.stringify(join(dir, "secret.txt"))} });
        print("read it");
      } catch (error) {
        print("refused: " + error.message);
      }`);
    expect(text).toContain("refused:");
    expect(text).toContain("denied");
    expect(text).not.toContain("TOP SECRET");
    expect(text).not.toContain("read it");
  });

  it("headless refusals hold: a call that would ask is refused inside the program", async () => {
    const { dir, run } = await session();
    const { text } = await run(`
      try { await Bash({ command: "touch ${join(dir, "made-by-bash")}" }); print("ran"); }
      catch (error) { print("refused: " + error.message); }`);
    expect(text).toContain("refused:");
    const { existsSync } = await import("node:fs");
    expect(existsSync(join(dir, "made-by-bash"))).toBe(false);
  });

  it("an uncaught refusal fails the call with its reason", async () => {
    const { dir, run } = await session([deny("Read")]);
    await writeFile(join(dir, "x"), "x\n");
    const { text, isError } = await run(`await Read({ file_path: ${JSON.stringify(join(dir, "x"))} });`);
    expect(isError).toBe(true);
    expect(text).toMatch(/Error: .*denied/);
  });

  it("a PreToolUse hook refuses a call made from the program, as it would a direct one", async () => {
    const { dir, run } = await session();
    await writeFile(join(dir, "a.txt"), "a\n");
    project?.context.setAppState((state) => ({
      ...state,
      hooks: new HookRunner({
        config: {
          PreToolUse: [
            { matcher: "Read", hooks: [{ type: "command", command: "echo 'reads are closed today' >&2; exit 2" }] },
          ],
        },
        cwd: dir,
        sessionId: "test-session",
      }),
    }));
    const { text } = await run(`
      try { await Read({ file_path: ${JSON.stringify(join(dir, "a.txt"))} }); print("read"); }
      catch (error) { print("refused: " + error.message); }`);
    expect(text).toContain("refused:");
    expect(text).toContain("reads are closed today");
  });

  it("stops an infinite loop at its time limit", async () => {
    const { run } = await session();
    const { text, isError } = await run("print('before'); while (true) {}", { timeout_seconds: 1 });
    expect(isError).toBe(true);
    expect(text).toContain("before");
    expect(text).toContain("ran longer than 1 s");
  });

  it("stops a program that outgrows its memory limit (the sandbox with a 2 MB heap)", async () => {
    const { runInSandbox } = await import("../../../src/tools/repl/sandbox.js");
    const limits = { memoryBytes: 2 * 1024 * 1024, timeoutMs: 120_000, maxOutputChars: 1000 };
    const run = await runInSandbox(
      "const a = []; for (;;) a.push({ x: [1, 2, 3] });",
      [],
      async () => "",
      limits,
      new AbortController().signal,
    );
    expect(run.error).toContain("out of memory");
  });

  it("has no Node inside: process, require, fetch and the host's globals are absent", async () => {
    const { run } = await session();
    const { text } = await run(
      "print(typeof process, typeof require, typeof fetch, typeof setTimeout, typeof globalThis.Buffer, typeof __warden_call)",
    );
    expect(text).toBe("undefined undefined undefined undefined undefined undefined");
  });

  it("cuts output at its limit", async () => {
    const { run } = await session();
    const { text } = await run("for (let i = 0; i < 400; i++) print('x'.repeat(100))");
    expect(text).toContain("[output cut at 30000 characters]");
    expect(text.length).toBeLessThan(31_000);
  });

  it("reports a syntax error and a thrown error", async () => {
    const { run } = await session();
    expect((await run("this is not javascript(")).text).toMatch(/SyntaxError/);
    const thrown = await run("print('partial'); throw new TypeError('boom')");
    expect(thrown.isError).toBe(true);
    expect(thrown.text).toContain("partial");
    expect(thrown.text).toContain("TypeError: boom");
  });

  it("calls code-only tools by a safe JavaScript name, through the same authority", async () => {
    const { ReadTool } = await import("../../../src/tools/read/tool.js");
    // A stand-in for an MCP tool with a name that is not a JavaScript identifier.
    const codeOnly: AnyTool = { ...ReadTool, name: "mcp__files-server__read.file" } as AnyTool;
    const { dir, run } = await session([deny("mcp__files-server__read.file")], [codeOnly]);
    await writeFile(join(dir, "x.txt"), "x\n");
    const { text } = await run(`
      try { await mcp__files_server__read_file({ file_path: ${JSON.stringify(join(dir, "x.txt"))} }); print("ran"); }
      catch (error) { print("refused: " + error.message); }
      print(typeof tools["mcp__files-server__read.file"]);
      print(Object.keys(schemaOf("mcp__files_server__read_file").properties).includes("file_path"));`);
    expect(text).toContain("refused:");
    expect(text).toContain("function");
    expect(text).toContain("true");
  });
});
