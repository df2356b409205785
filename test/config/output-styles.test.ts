// Output styles: built-ins, the user's and the project's files (frontmatter optional), the
// project's winning by name, and an unknown name said instead of silently ignored.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chooseOutputStyle,
  loadOutputStyles,
  outputStyleSection,
  saveOutputStyle,
} from "../../src/config/output-styles.js";

const home = realpathSync(mkdtempSync(join(tmpdir(), "warden-styles-home-")));
process.env.HOME = home;

function project(files: Record<string, string>): string {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-styles-")));
  mkdirSync(join(cwd, ".claude", "output-styles"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, ".claude", "output-styles", name), text);
  return cwd;
}

describe("output styles", () => {
  it("offer the built-ins and a project's files, frontmatter or not", () => {
    const cwd = project({
      "terse.md":
        "---\nname: Terse\ndescription: Few words\nkeep-coding-instructions: true\n---\nAnswer in one sentence.\n",
      "pirate.md": "Talk like a pirate.\n",
    });
    const names = loadOutputStyles(cwd).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["Default", "Explanatory", "Learning", "Terse", "pirate"]));
    const warnings: string[] = [];
    expect(outputStyleSection("terse", cwd, warnings)).toBe("# Output style: Terse\nAnswer in one sentence.");
    expect(outputStyleSection("pirate", cwd, warnings)).toBe("# Output style: pirate\nTalk like a pirate.");
    expect(outputStyleSection("Explanatory", cwd, warnings)).toContain("Insight");
    expect(outputStyleSection("default", cwd, warnings)).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("a project's style overrides a built-in of the same name; a user's style is found too", () => {
    mkdirSync(join(home, ".claude", "output-styles"), { recursive: true });
    writeFileSync(join(home, ".claude", "output-styles", "mine.md"), "---\nname: Mine\n---\nMy way.\n");
    const cwd = project({ "learning.md": "---\nname: Learning\n---\nOur own learning style.\n" });
    const warnings: string[] = [];
    expect(outputStyleSection("Learning", cwd, warnings)).toBe("# Output style: Learning\nOur own learning style.");
    expect(outputStyleSection("mine", cwd, warnings)).toBe("# Output style: Mine\nMy way.");
  });

  it("an unknown name is said, and the default style stays", () => {
    const warnings: string[] = [];
    expect(outputStyleSection("Shouty", project({}), warnings)).toBeUndefined();
    expect(warnings[0]).toContain('outputStyle "Shouty" names no output style');
  });

  it("a file with broken frontmatter is skipped with a warning naming it", () => {
    const warnings: string[] = [];
    loadOutputStyles(project({ "bad.md": "---\nname: [unclosed\n---\nx\n" }), warnings);
    expect(warnings[0]).toMatch(/bad\.md was skipped/);
  });
});

describe("choosing an output style", () => {
  it("names the style in force (default when none or unknown) and saves a choice in settings.local.json", () => {
    const cwd = project({ "terse.md": "---\nname: Terse\n---\nAnswer in one sentence.\n" });
    const warnings: string[] = [];
    expect(chooseOutputStyle("terse", cwd, warnings)).toEqual({
      name: "Terse",
      section: "# Output style: Terse\nAnswer in one sentence.",
    });
    expect(chooseOutputStyle(undefined, cwd, warnings)).toEqual({ name: "default" });
    expect(chooseOutputStyle("nope", cwd, warnings)).toEqual({ name: "default" });
    expect(warnings).toHaveLength(1);
    // A choice joins what the local settings already hold.
    writeFileSync(join(cwd, ".claude", "settings.local.json"), '{"permissions": {"allow": ["Read"]}}\n');
    const file = saveOutputStyle(cwd, "Terse");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ permissions: { allow: ["Read"] }, outputStyle: "Terse" });
  });
});
