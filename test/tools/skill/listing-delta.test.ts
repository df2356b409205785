// The Skill tool's listing reminder over a session: told once, told again only when the skill
// folders changed (a fingerprint decides when to read them again), and told when none are left.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { discoverSkills } from "../../../src/config/skills/discover.js";
import { skillFoldersStamp } from "../../../src/config/skills/stamp.js";
import { createToolUseContext } from "../../../src/tool/context.js";
import { emptyPermissionContext } from "../../../src/tool/permission-types.js";
import type { AttachmentContext } from "../../../src/tool/types.js";
import { createSkillTool } from "../../../src/tools/skill/tool.js";
import { tempDir } from "../../loop/helpers.js";

let home: string;
let project: string;

beforeEach(() => {
  home = tempDir("warden-skill-home-");
  project = tempDir("warden-skill-project-");
  vi.stubEnv("WARDEN_HOME", join(home, ".warden"));
  vi.stubEnv("HOME", home);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

function skill(name: string, description: string): void {
  const dir = join(project, ".claude", "skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\ndescription: ${description}\n---\nDo it.\n`);
}

describe("the skill listing during a session", () => {
  it("is told at the first request, again only after the folders changed, and when every skill is gone", async () => {
    skill("tidy", "Tidies the imports");
    const discover = () => discoverSkills({ cwd: project, projectTrusted: true });
    let rescans = 0;
    const tool = createSkillTool(await discover(), {
      rescan: () => {
        rescans++;
        return discover();
      },
      stamp: () => skillFoldersStamp(project),
    });
    const context = createToolUseContext({
      options: {
        tools: [tool],
        model: "test",
        cwd: project,
        sessionId: "s",
        sessionDir: join(home, "s"),
        isNonInteractive: true,
      },
      appState: { toolPermissionContext: emptyPermissionContext(project) },
    });
    const source = tool.attachments?.[0];
    const collect = async () => {
      const items = await source?.collect({ context, turn: 0, now: new Date() } as AttachmentContext);
      return items?.map((item) => ("text" in item ? item.text : "")).join("\n");
    };

    expect(await collect()).toContain("- tidy: Tidies the imports");
    // Nothing changed on disk: nothing said, nothing read again.
    expect(await collect()).toBeUndefined();
    expect(rescans).toBe(0);

    skill("triage", "Sorts the incoming issues");
    const changed = await collect();
    expect(changed).toMatch(/^The list of skills changed/);
    expect(changed).toContain("- tidy: Tidies the imports");
    expect(changed).toContain("- triage: Sorts the incoming issues");
    expect(rescans).toBe(1);
    expect(await collect()).toBeUndefined();

    // An edit to a description is a change too (the file's size and time differ).
    skill("tidy", "Tidies the imports and sorts them by path");
    expect(await collect()).toContain("- tidy: Tidies the imports and sorts them by path");

    rmSync(join(project, ".claude", "skills"), { recursive: true });
    expect(await collect()).toMatch(/no skills to run with the Skill tool now/);
    // The model can no longer be sent to a skill that was removed.
    expect(await tool.validateInput?.({ skill: "triage" }, context)).toMatchObject({ result: false });
  });
});
