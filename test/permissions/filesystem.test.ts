// Path rules, path boundaries and the bypass-immune safety checks, through the real file tools
// (Read, Write, Edit) and the real settings loader, on real files, links and folders.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkReadPermission, checkWritePermission } from "../../src/permissions/filesystem/index.js";
import { hasPermissionsToUseTool } from "../../src/permissions/pipeline/index.js";
import type { PermissionCliOptions } from "../../src/permissions/settings/index.js";
import type { PermissionDecision, ToolPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool, ToolInput } from "../../src/tool/types.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";
import { contextFor, isolateEnvironment, tempDir, toolContext, writeJson } from "./helpers.js";

const env = isolateEnvironment();
const project = env.project;
const outside = tempDir("warden-outside-");

beforeAll(() => {
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(project, "secret"), { recursive: true });
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "deep", "er"), { recursive: true });
  writeFileSync(join(project, "src", "a.ts"), "a");
  writeFileSync(join(project, ".git", "config"), "[core]");
  writeFileSync(join(outside, "target.txt"), "outside");
  symlinkSync(outside, join(project, "link-to-outside"));
  symlinkSync(join(outside, "not-yet-there.txt"), join(project, "dangling"));
  writeJson(join(project, ".warden", "settings.json"), {
    permissions: {
      deny: ["Read(./secret/**)", "Read(*.env)", "Edit(./locked/**)", `Read(//${outside.slice(1)}/private/**)`],
      allow: ["Edit(./src/**)"],
    },
  });
});

async function decide(
  tool: AnyTool,
  input: ToolInput,
  cli: PermissionCliOptions = {},
  tweak: (c: ToolPermissionContext) => ToolPermissionContext = (c) => c,
): Promise<PermissionDecision> {
  const permissionContext = tweak(contextFor(project, cli));
  return hasPermissionsToUseTool(tool, input, toolContext(project, permissionContext, [tool]), permissionContext);
}

const read = (file_path: string) => ({ file_path });
const write = (file_path: string) => ({ file_path, content: "x" });
const bypass: PermissionCliOptions = { dangerouslySkipPermissions: true };

describe("path rules", () => {
  it("allows reads inside the working directory and asks outside it", async () => {
    expect((await decide(ReadTool, read(join(project, "src", "a.ts")))).behavior).toBe("allow");
    expect((await decide(ReadTool, read(join(outside, "target.txt")))).behavior).toBe("ask");
  });

  it("anchors ./ patterns at the settings file's project", async () => {
    const decision = await decide(ReadTool, read(join(project, "secret", "key.pem")));
    expect(decision.behavior).toBe("deny");
    expect(decision.decisionReason).toMatchObject({
      type: "rule",
      rule: { source: "projectSettings", value: { ruleContent: "./secret/**" } },
    });
  });

  it("matches a slash-less pattern at any depth, as .gitignore does", async () => {
    expect((await decide(ReadTool, read(join(project, "deep", "er", "prod.env")))).behavior).toBe("deny");
    expect((await decide(ReadTool, read(join(project, "deep", "er", "prod.envy")))).behavior).toBe("allow");
  });

  it("reads //path as an absolute path", async () => {
    expect((await decide(ReadTool, read(join(outside, "private", "x")))).behavior).toBe("deny");
  });

  it("anchors ~/ at the user's home", async () => {
    writeJson(join(env.home, ".warden", "settings.json"), { permissions: { allow: ["Read(~/notes/**)"] } });
    try {
      const decision = await decide(ReadTool, read(join(env.home, "notes", "todo.md")));
      expect(decision).toMatchObject({
        behavior: "allow",
        decisionReason: { type: "rule", rule: { source: "userSettings" } },
      });
      expect((await decide(ReadTool, read(join(env.home, "other", "todo.md")))).behavior).toBe("ask");
    } finally {
      writeJson(join(env.home, ".warden", "settings.json"), {});
    }
  });

  it("applies Edit rules to every writing tool", async () => {
    expect((await decide(WriteTool, write(join(project, "locked", "f.txt")))).behavior).toBe("deny");
    const allowed = await decide(WriteTool, write(join(project, "src", "new.ts")));
    expect(allowed).toMatchObject({ behavior: "allow", decisionReason: { type: "rule" } });
    expect((await decide(WriteTool, write(join(project, "docs", "new.md")))).behavior).toBe("ask");
  });

  it("lets acceptEdits write inside the working directories only", async () => {
    const mode: PermissionCliOptions = { permissionMode: "acceptEdits" };
    expect(await decide(WriteTool, write(join(project, "docs", "new.md")), mode)).toMatchObject({
      behavior: "allow",
      decisionReason: { type: "mode", mode: "acceptEdits" },
    });
    expect((await decide(WriteTool, write(join(outside, "new.md")), mode)).behavior).toBe("ask");
    const added = await decide(WriteTool, write(join(outside, "new.md")), { ...mode, addDirs: [outside] });
    expect(added.behavior).toBe("allow");
  });

  it("keeps plan mode read-only: writes ask even where rules allow them", async () => {
    const plan: PermissionCliOptions = { permissionMode: "plan" };
    expect((await decide(WriteTool, write(join(project, "src", "new.ts")), plan)).behavior).toBe("ask");
    expect((await decide(ReadTool, read(join(project, "src", "a.ts")), plan)).behavior).toBe("allow");
  });
});

describe("safety checks no mode or allow rule passes", () => {
  it("asks for .git/config even in bypass mode", async () => {
    const decision = await decide(
      EditTool,
      { file_path: join(project, ".git", "config"), old_string: "[core]", new_string: "[x]" },
      bypass,
    );
    expect(decision.behavior).toBe("ask");
    expect(decision.decisionReason).toMatchObject({ type: "safetyCheck" });
  });

  it("asks for ~/.bashrc even in bypass mode with home as a working directory", async () => {
    const decision = await decide(WriteTool, write(join(env.home, ".bashrc")), { ...bypass, addDirs: [env.home] });
    expect(decision.behavior).toBe("ask");
    expect(decision.decisionReason).toMatchObject({ type: "safetyCheck", reason: expect.stringContaining("start-up") });
  });

  it("asks for .warden/, .claude/ and .vscode/ writes under allow rules and acceptEdits", async () => {
    for (const dir of [".warden", ".claude", ".vscode"]) {
      const decision = await decide(WriteTool, write(join(project, dir, "settings.json")), {
        permissionMode: "acceptEdits",
        allowedTools: ["Edit"],
      });
      expect(decision.behavior, dir).toBe("ask");
    }
  });

  it("compares protected names without case (case-insensitive filesystems)", async () => {
    expect((await decide(WriteTool, write(join(project, ".GIT", "hooks", "pre-commit")), bypass)).behavior).toBe("ask");
  });

  it("asks for writes outside the working directories in bypass mode", async () => {
    const decision = await decide(WriteTool, write(join(outside, "x.txt")), bypass);
    expect(decision).toMatchObject({ behavior: "ask", decisionReason: { type: "safetyCheck" } });
  });

  it("offers a file's folder outside the working directories, never the filesystem's root", async () => {
    const folders = async (path: string) => {
      const decision = await decide(ReadTool, read(path));
      expect(decision.behavior, path).toBe("ask");
      const offered = decision.behavior === "ask" ? (decision.suggestions ?? []) : [];
      return offered.filter((s) => s.type === "addDirectories");
    };
    expect(await folders(join(outside, "target.txt"))).toEqual([
      { type: "addDirectories", directories: [outside], destination: "session" },
    ]);
    expect(await folders("/warden-no-such-file")).toEqual([]);
  });

  it("treats a symlink that points outside the project as outside", async () => {
    const viaLink = join(project, "link-to-outside", "target.txt");
    expect((await decide(ReadTool, read(viaLink))).behavior).toBe("ask");
    const written = await decide(WriteTool, write(viaLink), { ...bypass, permissionMode: "acceptEdits" });
    expect(written).toMatchObject({
      behavior: "ask",
      decisionReason: { type: "safetyCheck", reason: expect.stringContaining(outside) },
    });
  });

  it("follows a dangling link to where a write would land", async () => {
    const decision = await decide(WriteTool, write(join(project, "dangling")), { permissionMode: "acceptEdits" });
    expect(decision).toMatchObject({ behavior: "ask", decisionReason: { type: "safetyCheck" } });
  });

  it("resolves .. before deciding", async () => {
    const decision = await decide(WriteTool, write(`${project}/src/../../escaped.txt`), {
      permissionMode: "acceptEdits",
    });
    expect(decision).toMatchObject({ behavior: "ask", decisionReason: { type: "safetyCheck" } });
  });

  it("asks for UNC paths, reads included, whatever the mode", () => {
    // The file tools normalise `//host` away on POSIX; the check itself must still catch both spellings.
    const context = contextFor(project, bypass);
    for (const path of ["//attacker.example/share/x", "\\\\attacker.example\\share\\x"]) {
      for (const check of [checkReadPermission, checkWritePermission]) {
        expect(check("Read", path, context, []), path).toMatchObject({
          behavior: "ask",
          decisionReason: { type: "safetyCheck", reason: expect.stringContaining("UNC") },
        });
      }
    }
  });
});
