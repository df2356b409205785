// `@path` imports in CLAUDE.md / AGENTS.md: what Claude Code users already write in their memory
// files reaches the model as the imported file's text, within bounds, and never past a deny rule.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMemoryFiles, MAX_MEMORY_FILE_CHARS } from "../../src/config/memory.js";
import { importedPaths, MAX_IMPORT_DEPTH, withoutCode } from "../../src/config/memory-imports.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { collect, sessionFor, tempDir, text } from "../loop/helpers.js";

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

describe("@path imports", () => {
  it("expands relative, ./, ../, ~ and absolute imports, each after the file that names it", () => {
    const project = tempDir("warden-project-");
    const outside = tempDir("warden-outside-");
    mkdirSync(join(project, "docs"));
    writeFileSync(join(project, "CLAUDE.md"), "Rules.\nSee @docs/style.md and @./docs/more.md.\n@~/personal.md\n");
    writeFileSync(join(project, "docs", "style.md"), "Use tabs. Also @../shared.md");
    writeFileSync(join(project, "docs", "more.md"), "More rules");
    writeFileSync(join(project, "shared.md"), "Shared rules");
    writeFileSync(join(home, "personal.md"), `Personal rules @${join(outside, "abs.md")}`);
    writeFileSync(join(outside, "abs.md"), "Absolute rules");
    // Files outside the project load once approved (config/memory-boundary.ts, tested in memory-boundary.test.ts).
    const files = loadMemoryFiles(project, { externalImports: "load" });
    expect(files.map((f) => [f.content.split(/[ .\n]/)[0], f.importedFrom ?? null])).toEqual([
      ["Rules", null],
      ["Use", join(project, "CLAUDE.md")],
      ["Shared", join(project, "docs", "style.md")],
      ["More", join(project, "CLAUDE.md")],
      ["Personal", join(project, "CLAUDE.md")],
      ["Absolute", join(home, "personal.md")],
    ]);
    expect(files.every((f) => f.scope === "project")).toBe(true);
  });

  it("ignores imports inside code spans and fenced blocks, e-mail addresses and mentions", () => {
    const content = [
      "Write `@docs/a.md` to import.",
      "```md",
      "@docs/b.md",
      "```",
      "~~~",
      "@docs/c.md",
      "~~~",
      "Mail me at someone@example.com or ping @alice.",
      "But @docs/d.md is real.",
    ].join("\n");
    expect(importedPaths(content, "/p")).toEqual(["/p/docs/d.md"]);
    expect(withoutCode("a ``x ` @y.md`` b")).toBe(`a ${" ".repeat(13)} b`);
  });

  it("stops cycles and bounds the depth", () => {
    const project = tempDir("warden-project-");
    writeFileSync(join(project, "CLAUDE.md"), "root @a.md");
    writeFileSync(join(project, "a.md"), "a @b.md");
    writeFileSync(join(project, "b.md"), "b @a.md @CLAUDE.md");
    expect(loadMemoryFiles(project).map((f) => f.content)).toEqual(["root @a.md", "a @b.md", "b @a.md @CLAUDE.md"]);

    const deep = tempDir("warden-deep-");
    for (let i = 0; i <= MAX_IMPORT_DEPTH + 2; i += 1)
      writeFileSync(join(deep, `l${i}.md`), `level ${i} @l${i + 1}.md`);
    writeFileSync(join(deep, "AGENTS.md"), "top @l0.md");
    const levels = loadMemoryFiles(deep).map((f) => f.content.split(" @")[0]);
    // The file the user wrote, then MAX_IMPORT_DEPTH levels of imports.
    expect(levels).toEqual(["top", "level 0", "level 1", "level 2", "level 3", "level 4"]);
  });

  it("skips a missing or binary import without failing the rest", () => {
    const project = tempDir("warden-project-");
    writeFileSync(join(project, "CLAUDE.md"), "root @missing.md @blob.bin @ok.md");
    writeFileSync(join(project, "blob.bin"), Buffer.from([0x41, 0x00, 0x42]));
    writeFileSync(join(project, "ok.md"), "fine");
    expect(loadMemoryFiles(project).map((f) => f.content)).toEqual(["root @missing.md @blob.bin @ok.md", "fine"]);
  });

  it("reaches the model in the system prompt, and a deny rule on Read keeps the imported file out", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "docs"));
    writeFileSync(join(cwd, "CLAUDE.md"), "Project rules. @docs/extra.md @docs/secret.md");
    writeFileSync(join(cwd, "docs", "extra.md"), "EXTRA: always run the linter");
    writeFileSync(join(cwd, "docs", "secret.md"), "SECRET: the deploy token is hunter2");
    const permissionContext = emptyPermissionContext(cwd);
    permissionContext.rules.deny.push({
      source: "session",
      behavior: "deny",
      value: { toolName: "Read", ruleContent: "./docs/secret.md" },
    });
    const { session, requests } = sessionFor(cwd, [{ content: [text("ok")] }], {
      loadMemory: true,
      tools: [ReadTool] as AnyTool[],
      permissionContext,
    });
    await collect(session.submitMessage("x"));
    const system = requests[0]?.system ?? "";
    expect(system).toContain("EXTRA: always run the linter");
    expect(system).toContain(`imported by ${join(cwd, "CLAUDE.md")}`);
    expect(system).not.toContain("hunter2");
  });
});

describe("a memory file's length", () => {
  it("keeps the first MAX_MEMORY_FILE_CHARS characters of a long file, marked cut, and a file of that length whole", () => {
    const project = tempDir("warden-project-");
    // Multi-byte characters throughout: the cut is counted in characters, never mid-character.
    const long = `${"é".repeat(MAX_MEMORY_FILE_CHARS)}tail`.repeat(3);
    writeFileSync(join(project, "CLAUDE.md"), `@exact.md\n${long}\n`);
    writeFileSync(join(project, "exact.md"), "€".repeat(MAX_MEMORY_FILE_CHARS));
    const [main, exact] = loadMemoryFiles(project);
    expect(main?.truncated).toBe(true);
    expect(main?.content).toBe(`@exact.md\n${"é".repeat(MAX_MEMORY_FILE_CHARS - "@exact.md\n".length)}`);
    expect(exact?.truncated).toBe(false);
    expect(exact?.content).toBe("€".repeat(MAX_MEMORY_FILE_CHARS));
  });
});
