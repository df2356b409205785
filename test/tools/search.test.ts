import { execFileSync } from "node:child_process";
import { mkdir, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ripgrepPath, runRipgrep } from "../../src/tools/file-shared/ripgrep.js";
import { GlobTool } from "../../src/tools/glob/tool.js";
import { buildRipgrepArgs } from "../../src/tools/grep/args.js";
import { GrepTool } from "../../src/tools/grep/tool.js";
import { callText, callTool, makeProject, type TestProject, validationMessage } from "./helpers.js";

let project: TestProject;

/** A small repository: sources, a .gitignore'd build folder, a hidden file, a .git folder. */
async function fixtureTree(dir: string): Promise<void> {
  const files: Record<string, string> = {
    "src/app.ts": "export function main() {\n  console.log('TODO: start');\n}\n",
    "src/util/strings.ts": "export const greet = (n: string) => 'Hello ' + n;\n// todo lowercase\n",
    "src/util/numbers.js": "module.exports = { add: (a, b) => a + b }; // TODO numbers\n",
    "docs/guide.md": "# Guide\nNothing to do here.\n-flag appears here\n",
    "build/out.js": "TODO in build output\n",
    ".config/settings.json": '{ "todo": "TODO hidden" }\n',
    ".gitignore": "build/\n",
    "multi.txt": "struct Foo {\n  field: u8,\n}\n",
  };
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
  execFileSync("git", ["init", "-q"], { cwd: dir });
  await writeFile(path.join(dir, ".git", "TODO_IN_GIT"), "TODO inside .git\n");
  // Distinct mtimes, app.ts newest.
  const order = [
    "docs/guide.md",
    "src/util/numbers.js",
    "src/util/strings.ts",
    ".config/settings.json",
    "multi.txt",
    "src/app.ts",
  ];
  for (const [i, rel] of order.entries()) {
    const t = new Date(Date.UTC(2024, 0, 1 + i));
    await utimes(path.join(dir, rel), t, t);
  }
}

beforeEach(async () => {
  project = await makeProject();
  await fixtureTree(project.dir);
});
afterEach(async () => {
  await project.cleanup();
});

describe("Grep", () => {
  it("files_with_matches (default): newest first, .gitignore and .git excluded, hidden files included", async () => {
    const text = await callText(GrepTool, { pattern: "TODO" }, project.context);
    expect(text).toBe("Found 3 files\nsrc/app.ts\n.config/settings.json\nsrc/util/numbers.js");
  });

  it("content mode with line numbers, -i and context lines", async () => {
    const text = await callText(
      GrepTool,
      { pattern: "todo", output_mode: "content", "-i": true, glob: "*.ts" },
      project.context,
    );
    const lines = text.split("\n").sort();
    expect(lines).toEqual(["src/app.ts:2:  console.log('TODO: start');", "src/util/strings.ts:2:// todo lowercase"]);
    const withContext = await callText(
      GrepTool,
      { pattern: "console", output_mode: "content", "-B": 1, "-A": 1, path: path.join(project.dir, "src", "app.ts") },
      project.context,
    );
    expect(withContext).toBe(
      "src/app.ts-1-export function main() {\nsrc/app.ts:2:  console.log('TODO: start');\nsrc/app.ts-3-}",
    );
    const noNumbers = await callText(
      GrepTool,
      { pattern: "Guide", output_mode: "content", "-n": false },
      project.context,
    );
    expect(noNumbers).toBe("docs/guide.md:# Guide");
  });

  it("count mode with totals", async () => {
    const text = await callText(
      GrepTool,
      { pattern: "e", output_mode: "count", path: path.join(project.dir, "docs") },
      project.context,
    );
    expect(text).toBe("docs/guide.md:3\n\nFound 3 matching lines across 1 file.");
    const all = await callText(GrepTool, { pattern: "TODO", output_mode: "count" }, project.context);
    expect(all.split("\n\n")[0]!.split("\n").sort()).toEqual([
      ".config/settings.json:1",
      "src/app.ts:1",
      "src/util/numbers.js:1",
    ]);
  });

  it("type filter, and a pattern that starts with '-'", async () => {
    expect(await callText(GrepTool, { pattern: "TODO", type: "js" }, project.context)).toBe(
      "Found 1 file\nsrc/util/numbers.js",
    );
    expect(await callText(GrepTool, { pattern: "-flag", output_mode: "content" }, project.context)).toBe(
      "docs/guide.md:3:-flag appears here",
    );
  });

  it("multiline patterns need multiline: true", async () => {
    expect(await callText(GrepTool, { pattern: "Foo \\{.*field" }, project.context)).toBe("No files found");
    expect(await callText(GrepTool, { pattern: "Foo \\{.*field", multiline: true }, project.context)).toBe(
      "Found 1 file\nmulti.txt",
    );
  });

  it("head_limit and offset page through results, with a note", async () => {
    const first = await callText(GrepTool, { pattern: "TODO", head_limit: 2 }, project.context);
    expect(first).toContain("src/app.ts\n.config/settings.json");
    expect(first).toMatch(/limit: 2.*offset: 2/s);
    const second = await callText(GrepTool, { pattern: "TODO", head_limit: 2, offset: 2 }, project.context);
    expect(second).toContain("src/util/numbers.js");
    expect(second).not.toContain("src/app.ts");
  });

  it("reports no matches and a missing path clearly", async () => {
    expect(await callText(GrepTool, { pattern: "zzz_not_here", output_mode: "content" }, project.context)).toBe(
      "No matches found",
    );
    expect(
      await validationMessage(GrepTool, { pattern: "x", path: path.join(project.dir, "nope") }, project.context),
    ).toMatch(/does not exist/);
    expect(await validationMessage(GrepTool, { pattern: "x", path: "nope" }, project.context)).toContain(
      `Path does not exist: ${path.join(project.dir, "nope")}`,
    );
  });

  it("builds the ripgrep call the reference describes", () => {
    const args = buildRipgrepArgs({
      pattern: "-x",
      searchPath: ".",
      outputMode: "content",
      multiline: true,
      glob: "*.ts,*.tsx {a,b}.js",
    });
    expect(args).toEqual(
      expect.arrayContaining([
        "--hidden",
        "--glob",
        "!{.git,.svn,.hg,.bzr,.jj,.sl}",
        "--max-columns",
        "500",
        "-U",
        "--multiline-dotall",
        "-n",
      ]),
    );
    expect(args.slice(-4)).toEqual(["-e", "-x", "--", "."]);
    expect(args.filter((_, i) => args[i - 1] === "--glob")).toEqual([
      "!{.git,.svn,.hg,.bzr,.jj,.sl}",
      "*.ts",
      "*.tsx",
      "{a,b}.js",
    ]);
  });

  it("fails with a clear message when ripgrep is missing", async () => {
    const saved = process.env.WARDEN_RG_PATH;
    process.env.WARDEN_RG_PATH = path.join(project.dir, "no-rg-here");
    try {
      const result = await callTool(GrepTool, { pattern: "TODO" }, project.context);
      expect(result.is_error).toBe(true);
      expect(String(result.content)).toMatch(/ripgrep \(rg\) is not available.*apt-get install ripgrep/s);
    } finally {
      if (saved === undefined) delete process.env.WARDEN_RG_PATH;
      else process.env.WARDEN_RG_PATH = saved;
    }
    expect(await ripgrepPath()).toMatch(/rg$/);
  });

  it("passes the abort signal to ripgrep: an aborted call ends as interrupted", async () => {
    const controller = new AbortController();
    const context = { ...project.context, abortController: controller };
    const pending = callTool(GrepTool, { pattern: "TODO" }, context);
    controller.abort();
    const result = await pending;
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/Interrupted/);
    await expect(runRipgrep(["TODO", "."], { cwd: project.dir, signal: AbortSignal.abort() })).rejects.toThrow(
      /abort/i,
    );
  });

  it("never shows files that Read may not read (deny rules), in any mode", async () => {
    project.context.getAppState().toolPermissionContext.rules.deny.push({
      source: "session",
      behavior: "deny",
      value: { toolName: "Read", ruleContent: "./src/util/**" },
    });
    const files = await callText(GrepTool, { pattern: "TODO", "-i": true }, project.context);
    expect(files).toBe("Found 2 files\nsrc/app.ts\n.config/settings.json");
    const content = await callText(
      GrepTool,
      { pattern: "todo", "-i": true, output_mode: "content", "-C": 1 },
      project.context,
    );
    expect(content).not.toContain("src/util");
    expect(content).toContain("src/app.ts:2:");
    const counts = await callText(GrepTool, { pattern: "TODO", output_mode: "count" }, project.context);
    expect(counts).not.toContain("numbers.js");
    expect(await callText(GlobTool, { pattern: "src/**/*" }, project.context)).toBe("src/app.ts");
  });

  it("parses paths that contain ':' and '-'", async () => {
    await writeFile(path.join(project.dir, "odd:name-1.txt"), "alpha\nneedle-9: here\nomega\n");
    const text = await callText(GrepTool, { pattern: "needle", output_mode: "content", "-A": 1 }, project.context);
    expect(text).toBe("odd:name-1.txt:2:needle-9: here\nodd:name-1.txt-3-omega");
    expect(await callText(GrepTool, { pattern: "needle", output_mode: "count" }, project.context)).toMatch(
      /^odd:name-1\.txt:1\n/,
    );
  });

  it("is read-only and concurrency-safe with a 20,000-character result limit", () => {
    expect(GrepTool.isReadOnly({ pattern: "x" })).toBe(true);
    expect(GrepTool.isConcurrencySafe({ pattern: "x" })).toBe(true);
    expect(GrepTool.maxResultSizeChars).toBe(20_000);
  });
});

describe("Glob", () => {
  it("matches with shell glob rules, newest first, respecting .gitignore", async () => {
    expect(await callText(GlobTool, { pattern: "**/*.ts" }, project.context)).toBe("src/app.ts\nsrc/util/strings.ts");
    expect(await callText(GlobTool, { pattern: "*.txt" }, project.context)).toBe("multi.txt");
    expect(await callText(GlobTool, { pattern: "**/*.js" }, project.context)).toBe("src/util/numbers.js");
    expect(await callText(GlobTool, { pattern: "src/**/*.{ts,js}" }, project.context)).toBe(
      "src/app.ts\nsrc/util/strings.ts\nsrc/util/numbers.js",
    );
  });

  it("searches under path, and accepts an absolute pattern", async () => {
    expect(
      await callText(GlobTool, { pattern: "*.ts", path: path.join(project.dir, "src", "util") }, project.context),
    ).toBe("src/util/strings.ts");
    expect(await callText(GlobTool, { pattern: path.join(project.dir, "docs", "*.md") }, project.context)).toBe(
      "docs/guide.md",
    );
  });

  it("caps results at 100 with a note", async () => {
    await mkdir(path.join(project.dir, "many"));
    for (let i = 0; i < 120; i++) await writeFile(path.join(project.dir, "many", `f${i}.log`), "");
    const text = await callText(GlobTool, { pattern: "many/*.log" }, project.context);
    expect(text.split("\n").filter((l) => l.endsWith(".log"))).toHaveLength(100);
    expect(text).toMatch(/truncated.*100 newest of 120/);
  });

  it("reports no files, and a missing or non-folder path", async () => {
    expect(await callText(GlobTool, { pattern: "**/*.rs" }, project.context)).toBe("No files found");
    expect(
      await validationMessage(GlobTool, { pattern: "*", path: path.join(project.dir, "missing") }, project.context),
    ).toMatch(/does not exist/);
    expect(
      await validationMessage(GlobTool, { pattern: "*", path: path.join(project.dir, "multi.txt") }, project.context),
    ).toMatch(/not a folder/);
  });

  it("asks for read permission where the pattern actually walks", async () => {
    const inside = await GlobTool.checkPermissions({ pattern: "src/**/*.ts" }, project.context);
    expect(inside.behavior).toBe("allow");
    const escaping = await GlobTool.checkPermissions({ pattern: "../../*" }, project.context);
    expect(escaping.behavior).not.toBe("allow");
    const absolute = await GlobTool.checkPermissions({ pattern: "/etc/*.conf" }, project.context);
    expect(absolute.behavior).not.toBe("allow");
    expect(GlobTool.getPath!({ pattern: "/etc/*.conf" }, "/home")).toBe("/etc");
  });

  it("is read-only and concurrency-safe", () => {
    expect(GlobTool.isReadOnly({ pattern: "*" })).toBe(true);
    expect(GlobTool.isConcurrencySafe({ pattern: "*" })).toBe(true);
    expect(GlobTool.maxResultSizeChars).toBe(100_000);
  });
});
