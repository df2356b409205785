// Shapes found in the plugins of Claude Code's own marketplace, which Claude Code reads and Warden
// refused before: an agent whose one-line description holds `: ` unquoted, a skill whose `name` is
// a title ("Writing Rules"), and a command whose `argument-hint: [name]` YAML reads as a list. The
// plugin here is written by the test in the same format.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAgentFiles } from "../../src/config/agent-files.js";
import { quoteAmbiguousValues } from "../../src/config/frontmatter-split.js";
import { discoverSkills } from "../../src/config/skills/discover.js";

const dir = mkdtempSync(join(tmpdir(), "warden-plugin-shapes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const root = join(dir, "shapes");
write(
  join(root, "agents", "checker.md"),
  "---\nname: checker\ndescription: Use this agent when code changed. Examples: <example>Context: a user asked. user: check it</example>\nmodel: opus\n---\nYou check code.\n",
);
write(
  join(root, "agents", "broken.md"),
  "---\nname: broken\ndescription: First line. Examples:\n<example>\nuser: a multi-line value, not indented\n</example>\n---\nBody.\n",
);
write(
  join(root, "skills", "writing-rules", "SKILL.md"),
  '---\nname: Writing Rules\ndescription: Use when the user asks to "write a rule"\nversion: 0.1.0\n---\nHow to write rules.\n',
);
write(
  join(root, "commands", "new-app.md"),
  "---\ndescription: Create an app\nargument-hint: [project-name]\n---\nCreate $ARGUMENTS.\n",
);

describe("frontmatter as Claude Code's own plugins write it", () => {
  it("reads an agent whose description holds `: ` unquoted, and still names the file YAML cannot read at all", () => {
    const loaded = loadAgentFiles({
      cwd: join(dir, "project"),
      projectTrusted: true,
      pluginDirs: [{ dir: join(root, "agents"), source: "plugin", plugin: "shapes" }],
    });
    const checker = loaded.definitions.find((a) => a.agentType === "shapes:checker");
    expect(checker?.whenToUse).toBe(
      "Use this agent when code changed. Examples: <example>Context: a user asked. user: check it</example>",
    );
    expect(checker?.model).toBe("opus");
    expect(loaded.issues.map((i) => i.path)).toEqual([join(root, "agents", "broken.md")]);
    expect(loaded.issues[0]?.reason).toMatch(/invalid YAML in the frontmatter/);
  });

  it("names a skill whose `name` is a title by its folder, and shows a bracketed argument hint as written", async () => {
    const catalog = await discoverSkills({
      cwd: join(dir, "project"),
      projectTrusted: true,
      pluginFolders: [{ plugin: "shapes", skills: [join(root, "skills")], commands: [join(root, "commands")] }],
    });
    expect(catalog.warnings).toEqual([]);
    expect(catalog.skills.map((s) => s.name)).toEqual(["shapes:writing-rules"]);
    expect(catalog.commands.find((c) => c.name === "shapes:new-app")?.argumentHint).toBe("[project-name]");
  });

  it("quotes only plain one-line values YAML would misread", () => {
    expect(quoteAmbiguousValues("name: a\ndescription: when: now\nmodel: opus")).toBe(
      'name: a\ndescription: "when: now"\nmodel: opus',
    );
    expect(quoteAmbiguousValues('name: a\ndescription: "already: quoted"\ntools: [a, b]')).toBeUndefined();
    expect(quoteAmbiguousValues("description: see # not a comment")).toBe('description: "see # not a comment"');
  });
});
