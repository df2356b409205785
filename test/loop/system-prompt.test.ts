import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMemoryFiles, MAX_MEMORY_FILE_CHARS } from "../../src/config/memory.js";
import { buildSystemPrompt, findGitRoot } from "../../src/loop/system-prompt.js";
import type { AnyTool } from "../../src/tool/types.js";
import { collect, EchoTool, sessionFor, tempDir, text } from "./helpers.js";

const saved = { home: process.env.HOME, warden: process.env.WARDEN_HOME };
let home: string;

beforeEach(() => {
  home = tempDir("warden-home-");
  process.env.HOME = home;
  process.env.WARDEN_HOME = join(home, ".warden");
});
afterEach(() => {
  process.env.HOME = saved.home;
  process.env.WARDEN_HOME = saved.warden;
});

describe("memory files", () => {
  it("collects user then project files from the root down, nearest last", () => {
    const project = tempDir("warden-project-");
    const sub = join(project, "pkg");
    mkdirSync(join(project, ".claude"), { recursive: true });
    mkdirSync(sub);
    mkdirSync(join(home, ".warden"), { recursive: true });
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".warden", "AGENTS.md"), "user agents");
    writeFileSync(join(home, ".claude", "CLAUDE.md"), "user claude");
    writeFileSync(join(project, "AGENTS.md"), "project agents");
    writeFileSync(join(project, ".claude", "CLAUDE.md"), "project dot-claude");
    writeFileSync(join(project, "CLAUDE.local.md"), "private notes");
    writeFileSync(join(sub, "CLAUDE.md"), "package rules");
    writeFileSync(join(sub, "AGENTS.md"), "   \n");
    const files = loadMemoryFiles(sub);
    expect(files.map((f) => [f.content, f.scope])).toEqual([
      ["user agents", "user"],
      ["user claude", "user"],
      ["project agents", "project"],
      ["project dot-claude", "project"],
      ["private notes", "local"],
      ["package rules", "project"],
    ]);
  });

  it("cuts an oversized memory file and says so", () => {
    const project = tempDir("warden-project-");
    writeFileSync(join(project, "AGENTS.md"), "x".repeat(MAX_MEMORY_FILE_CHARS + 10));
    const [file] = loadMemoryFiles(project);
    expect(file?.truncated).toBe(true);
    expect(file?.content).toHaveLength(MAX_MEMORY_FILE_CHARS);
  });
});

describe("system prompt", () => {
  const environment = { cwd: "/w/app", platform: "linux", date: "2026-11-29", gitRoot: undefined, model: "replay:x" };

  it("tells the model where it is, which tools it has, the memory and the appended text", () => {
    const prompt = buildSystemPrompt(
      {
        environment: { ...environment, gitRoot: "/w/app" },
        memory: [
          {
            path: "/w/app/AGENTS.md",
            realPath: "/w/app/AGENTS.md",
            scope: "project",
            content: "Use tabs.",
            truncated: false,
          },
        ],
        append: "Answer in French.",
      },
      { loaded: [EchoTool as AnyTool], deferred: [] },
    );
    expect(prompt).toContain("Working directory: /w/app");
    expect(prompt).toContain("Git repository: yes (root /w/app)");
    expect(prompt).toContain("Platform: linux");
    expect(prompt).toContain("Today's date: 2026-11-29");
    expect(prompt).toContain("You can call: Echo.");
    expect(prompt).toContain("Contents of /w/app/AGENTS.md (project instructions");
    expect(prompt).toContain("Use tabs.");
    expect(prompt.endsWith("Answer in French.")).toBe(true);
  });

  it("says when the directory is not a git repository and when there are no tools", () => {
    const prompt = buildSystemPrompt({ environment, memory: [] }, { loaded: [], deferred: [] });
    expect(prompt).toContain("Git repository: no");
    expect(prompt).toContain("No tools are available");
  });

  it("finds the git root of a real repository from a subdirectory", () => {
    const repo = tempDir("warden-git-");
    execFileSync("git", ["init", "-q", repo]);
    mkdirSync(join(repo, "src"));
    expect(findGitRoot(join(repo, "src"))).toBe(repo);
    expect(findGitRoot(tempDir("warden-nogit-"))).toBeUndefined();
  });

  it("is what a session sends, with the project's AGENTS.md in it", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "AGENTS.md"), "Always run the linter.");
    const { session, requests } = sessionFor(cwd, [{ content: [text("ok")] }], {
      loadMemory: true,
      appendSystemPrompt: "Be brief.",
    });
    await collect(session.submitMessage("x"));
    expect(requests[0]?.system).toContain(`Working directory: ${cwd}`);
    expect(requests[0]?.system).toContain("Always run the linter.");
    expect(requests[0]?.system).toContain("Be brief.");
  });
});
