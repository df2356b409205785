// Relative paths in the file tools' inputs, through the real runToolUse path, the real permission
// engine (settings files loaded by the real loader, the headless ask handler) and real files: a
// relative path means one under the session's working directory (where the shell is), as in
// Claude Code, and every check (deny rules, the working-directory boundary, the protected paths,
// a PreToolUse hook) judges the absolute path the call acts on, `..` resolved.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { toolResultText } from "../../src/messages/types.js";
import { runToolUse, type ToolRunOutcome } from "../../src/orchestration/run-tool-use.js";
import { type AskRequest, createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import type { PermissionCliOptions } from "../../src/permissions/settings/index.js";
import type { ToolUseContext } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { contextFor, isolateEnvironment, tempDir, toolContext, writeJson } from "../permissions/helpers.js";

const env = isolateEnvironment();
const project = env.project;
const outside = tempDir("warden-outside-");
const tools = builtInTools();

beforeAll(() => {
  for (const dir of ["src", "secrets", "sub", ".git", "locked"]) mkdirSync(join(project, dir), { recursive: true });
  writeFileSync(join(project, "src", "a.ts"), "export const alpha = 1;\n");
  writeFileSync(join(project, "secrets", "key.txt"), "SECRET-TOKEN\n");
  writeFileSync(join(project, "sub", "b.txt"), "bravo SECRET-TOKEN mention\n");
  writeFileSync(join(project, ".git", "config"), "[core]\n");
  writeFileSync(join(outside, "target.txt"), "outside text\n");
  writeJson(join(project, ".warden", "settings.json"), {
    permissions: { deny: ["Read(./secrets/**)", "Edit(./locked/**)"] },
  });
});

interface Session {
  context: ToolUseContext;
  asked: AskRequest[];
  run(name: string, input: Record<string, unknown>): Promise<ToolRunOutcome>;
}

let nextId = 0;

/** A headless session in `project` whose shell is in `shellCwd` (a `cd` carried over). */
function session(shellCwd?: string, cli: PermissionCliOptions = {}, hooks?: HookRunner): Session {
  const context = toolContext(project, contextFor(project, cli), tools);
  if (shellCwd || hooks) {
    context.setAppState((state) => ({
      ...state,
      ...(shellCwd ? { bashCwd: shellCwd } : {}),
      ...(hooks ? { hooks } : {}),
    }));
  }
  const asked: AskRequest[] = [];
  const headless = createHeadlessAskHandler();
  const canUseTool = createCanUseTool({
    askHandler: async (request) => {
      asked.push(request);
      return headless(request);
    },
  });
  return {
    context,
    asked,
    run: (name, input) =>
      runToolUse({ type: "tool_use", id: `toolu_${++nextId}`, name, input }, context, canUseTool, undefined),
  };
}

const text = (outcome: ToolRunOutcome) => toolResultText(outcome.result.content);

describe("relative paths resolve against the session's working directory", () => {
  it("Read, Glob and Grep take `.` and relative paths from the session's start", async () => {
    const s = session();
    expect(text(await s.run("Read", { file_path: "src/a.ts" }))).toContain("alpha");
    // The same file however spelled: the second read is the "unchanged" stub of the first.
    expect(text(await s.run("Read", { file_path: "./src/../src/a.ts" }))).toMatch(/^File unchanged since last read/);
    expect(text(await s.run("Glob", { pattern: "**/*.ts", path: "." }))).toBe("src/a.ts");
    expect(text(await s.run("Glob", { pattern: "*.ts", path: "src" }))).toBe("src/a.ts");
    expect(text(await s.run("Grep", { pattern: "alpha", path: "." }))).toContain("src/a.ts");
    expect(text(await s.run("Grep", { pattern: "alpha", path: "src/a.ts", output_mode: "content" }))).toContain(
      "export const alpha",
    );
  });

  it("follows the shell: after a cd, relative paths and path-less searches start where the shell is", async () => {
    const s = session(join(project, "sub"));
    expect(text(await s.run("Read", { file_path: "b.txt" }))).toContain("bravo");
    expect(text(await s.run("Read", { file_path: "../src/a.ts" }))).toContain("alpha");
    // Results are shown relative to the same place, so a name copied from them reads that file.
    expect(text(await s.run("Glob", { pattern: "*.txt" }))).toBe("b.txt");
    expect(text(await s.run("Grep", { pattern: "bravo" }))).toBe("Found 1 file\nb.txt");
  });

  it("Write and Edit act on the file under the working directory", async () => {
    const s = session(join(project, "sub"), { permissionMode: "acceptEdits" });
    const written = await s.run("Write", { file_path: "new.txt", content: "fresh\n" });
    expect(written.result.is_error).toBeFalsy();
    expect(readFileSync(join(project, "sub", "new.txt"), "utf8")).toBe("fresh\n");
    const edited = await s.run("Edit", { file_path: "./new.txt", old_string: "fresh", new_string: "edited" });
    expect(edited.result.is_error).toBeFalsy();
    expect(readFileSync(join(project, "sub", "new.txt"), "utf8")).toBe("edited\n");
  });
});

describe("a relative path passes no check an absolute one would not", () => {
  it("deny rules hold for relative spellings and `..` escapes, from the start and after a cd", async () => {
    const fromRoot = session();
    const fromSub = session(join(project, "sub"));
    const attempts: [Session, string, Record<string, unknown>][] = [
      [fromRoot, "Read", { file_path: "secrets/key.txt" }],
      [fromRoot, "Read", { file_path: "./src/../secrets/key.txt" }],
      [fromRoot, "Grep", { pattern: "SECRET", path: "secrets" }],
      [fromRoot, "Glob", { pattern: "*", path: "./secrets" }],
      [fromRoot, "Glob", { pattern: "secrets/*" }],
      [fromSub, "Read", { file_path: "../secrets/key.txt" }],
      [fromSub, "Grep", { pattern: "SECRET", path: "../secrets/key.txt", output_mode: "content" }],
      [fromSub, "Glob", { pattern: "../secrets/*" }],
    ];
    for (const [s, name, input] of attempts) {
      const outcome = await s.run(name, input);
      const label = `${name} ${JSON.stringify(input)}`;
      expect(outcome.result.is_error, label).toBe(true);
      expect(outcome.denial?.reason, label).toMatchObject({
        type: "rule",
        rule: { value: { ruleContent: "./secrets/**" } },
      });
      expect(text(outcome), label).not.toContain("SECRET-TOKEN");
    }
  });

  it("a search from `..` leaves the denied files out of its results", async () => {
    const s = session(join(project, "sub"));
    const found = text(await s.run("Grep", { pattern: "SECRET-TOKEN", path: ".." }));
    expect(found).toContain("b.txt");
    expect(found).not.toContain("key.txt");
  });

  it("an Edit deny rule holds for a relative path, even in bypass mode", async () => {
    const s = session(join(project, "sub"), { dangerouslySkipPermissions: true });
    const outcome = await s.run("Write", { file_path: "../locked/new.txt", content: "x" });
    expect(outcome.result.is_error).toBe(true);
    expect(text(outcome)).toContain(`permission settings deny: ${join(project, "locked", "new.txt")}`);
    expect(existsSync(join(project, "locked", "new.txt"))).toBe(false);
  });

  it("a `..` escape out of the project is asked about as outside the working directories", async () => {
    const s = session(join(project, "sub"));
    const escaping = relative(join(project, "sub"), join(outside, "target.txt"));
    expect(escaping.startsWith("../../")).toBe(true);
    const outcome = await s.run("Read", { file_path: escaping });
    expect(outcome.result.is_error).toBe(true);
    expect(text(outcome)).not.toContain("outside text");
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]?.input).toEqual({ file_path: join(outside, "target.txt") });
  });

  it("protected paths stay protected in bypass mode when spelled relatively", async () => {
    for (const [shellCwd, spelled] of [
      [project, ".git/config"],
      [join(project, "sub"), "../.git/config"],
      [join(project, "sub"), "../.GIT/../.git/config"],
    ] as const) {
      const s = session(shellCwd, { dangerouslySkipPermissions: true });
      await s.run("Read", { file_path: spelled });
      const outcome = await s.run("Edit", { file_path: spelled, old_string: "[core]", new_string: "[hacked]" });
      expect(outcome.result.is_error, spelled).toBe(true);
      expect(s.asked.at(-1)?.ask.decisionReason, spelled).toMatchObject({ type: "safetyCheck" });
      expect(readFileSync(join(project, ".git", "config"), "utf8")).toBe("[core]\n");
    }
  });

  it("a PreToolUse hook is shown the absolute path the call will act on", async () => {
    const dir = tempDir("warden-hook-");
    const seen = join(dir, "stdin.json");
    const script = join(dir, "see.sh");
    writeFileSync(script, `#!/bin/sh\ncat > ${seen}\n`);
    chmodSync(script, 0o755);
    const hooks = new HookRunner({
      config: { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: script }] }] },
      cwd: project,
      sessionId: "test-session",
    });
    const s = session(join(project, "sub"), {}, hooks);
    expect(text(await s.run("Read", { file_path: "../src/a.ts" }))).toContain("alpha");
    expect(JSON.parse(readFileSync(seen, "utf8")).tool_input).toEqual({ file_path: join(project, "src", "a.ts") });
  });
});
