// Skills on real files: discovery at both levels and both folder names, frontmatter parsing and its
// errors, arguments, the listing's byte budget, the Skill tool's permission pipeline through the
// real engine, inline injection and the grants of `allowed-tools` riding on the call's context.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  discoverSkills,
  expandSlashPrompt,
  parseFrontmatter,
  type SkillCatalog,
  substituteArguments,
} from "../../../src/config/skills/index.js";
import { inspectWorkspaceTrust, trustWorkspace } from "../../../src/config/workspace-trust.js";
import { hasPermissionsToUseTool } from "../../../src/permissions/pipeline/index.js";
import { rulesFromStrings } from "../../../src/permissions/rules/index.js";
import { createToolUseContext } from "../../../src/tool/context.js";
import { emptyPermissionContext, type ToolPermissionContext } from "../../../src/tool/permission-types.js";
import type { ToolUseContext } from "../../../src/tool/types.js";
import { listingBudget, skillListingText } from "../../../src/tools/skill/listing.js";
import { createSkillTool } from "../../../src/tools/skill/tool.js";
import { tempDir } from "../../loop/helpers.js";

let home: string;
let project: string;

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function skillFile(root: string, folder: string, frontmatter: string, body = "Do the thing.\n"): string {
  const file = join(root, "skills", folder, "SKILL.md");
  write(file, frontmatter === "" ? body : `---\n${frontmatter}\n---\n${body}`);
  return file;
}

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

const discover = (projectTrusted = true) => discoverSkills({ cwd: project, projectTrusted });

describe("frontmatter", () => {
  it("parses YAML between --- lines and keeps the body", async () => {
    const parsed = await parseFrontmatter("---\nname: x\nallowed-tools:\n  - Read\n  - Bash(git:*)\n---\nBody\n");
    expect(parsed).toEqual({ attributes: { name: "x", "allowed-tools": ["Read", "Bash(git:*)"] }, body: "Body\n" });
    expect(await parseFrontmatter("No frontmatter")).toEqual({ attributes: {}, body: "No frontmatter" });
  });

  it("says what is wrong with a broken one", async () => {
    await expect(parseFrontmatter("---\nname: [unclosed\n---\n")).rejects.toThrow(/not valid YAML/);
    await expect(parseFrontmatter("---\nname: x\n")).rejects.toThrow(/not closed/);
    await expect(parseFrontmatter("---\n- a\n- b\n---\n")).rejects.toThrow(/key: value/);
  });
});

describe("discovery", () => {
  it("finds skills and commands in ~/.warden, ~/.claude and the project's .warden and .claude", async () => {
    skillFile(join(home, ".warden"), "a", "description: from warden home\nmodel: opus\ncontext: fork");
    skillFile(join(home, ".claude"), "b", "name: bee\ndescription: from claude home\nargument-hint: <file>");
    skillFile(join(project, ".warden"), "c", "description: project\nallowed-tools: Read, Bash(git diff:*)");
    skillFile(join(project, ".claude"), "d", "", "# Title\n\nFirst paragraph\nwraps here.\n\nSecond.");
    write(join(project, ".claude", "skills", "d", "reference.md"), "a resource");
    write(
      join(project, ".claude", "commands", "review.md"),
      "---\ndescription: Review\nallowed-tools: [Read]\n---\nReview $1",
    );
    write(join(home, ".warden", "commands", "hello.md"), "Say hello");
    const catalog = await discover();
    expect(catalog.warnings).toEqual([]);
    expect(catalog.skills.map((s) => [s.name, s.level, s.description])).toEqual([
      ["a", "user", "from warden home"],
      ["bee", "user", "from claude home"],
      ["c", "project", "project"],
      // No description: the first paragraph of the body, headings stripped, on one line.
      ["d", "project", "Title"],
    ]);
    const [a, bee, c] = catalog.skills;
    expect(a).toMatchObject({ model: "opus", context: "fork", frontmatterKeys: ["description", "model", "context"] });
    expect(bee?.argumentHint).toBe("<file>");
    expect(c?.allowedTools).toEqual(["Read, Bash(git diff:*)"]);
    expect(c?.dir).toBe(join(project, ".warden", "skills", "c"));
    expect(catalog.commands.map((cmd) => [cmd.name, cmd.level, cmd.allowedTools])).toEqual([
      ["hello", "user", []],
      ["review", "project", ["Read"]],
    ]);
  });

  it("keeps a user's skill over a project skill of the same name, and reports the one ignored", async () => {
    skillFile(join(home, ".warden"), "deploy", "description: the user's own");
    const shadowed = skillFile(join(project, ".warden"), "deploy", "description: the project's");
    const catalog = await discover();
    expect(catalog.skills.map((s) => s.description)).toEqual(["the user's own"]);
    expect(catalog.warnings).toEqual([expect.stringContaining(shadowed)]);
  });

  it("skips a broken file with a warning naming it and loads the others", async () => {
    const bad = skillFile(join(project, ".warden"), "bad", "description: [oops");
    // A `name` that is a title, not a name to type, is not an error: the folder names the skill (as in Claude Code).
    skillFile(join(project, ".warden"), "titled", "name: Has Spaces");
    const badContext = skillFile(join(project, ".warden"), "bad-context", "context: elsewhere");
    const badTools = skillFile(join(project, ".warden"), "bad-tools", "allowed-tools: 3");
    skillFile(join(project, ".warden"), "good", "description: fine");
    const catalog = await discover();
    expect(catalog.skills.map((s) => s.name).sort()).toEqual(["good", "titled"]);
    expect(catalog.warnings).toHaveLength(3);
    for (const [file, why] of [
      [bad, "not valid YAML"],
      [badContext, "must be fork or inline"],
      [badTools, "allowed-tools"],
    ] as const) {
      expect(catalog.warnings.find((w) => w.startsWith(file))).toContain(why);
    }
  });
});

describe("workspace trust", () => {
  it("holds back a project skill's or command's allowed-tools, and asks again when they change", async () => {
    const plain = skillFile(join(project, ".warden"), "plain", "description: only text");
    expect(inspectWorkspaceTrust(project).status).toBe("not_needed");
    const granting = skillFile(
      join(project, ".claude"),
      "gen",
      "description: g\nallowed-tools:\n  - Write\n  - Bash(make:*)",
    );
    write(join(project, ".warden", "commands", "ship.md"), "---\nallowed-tools: Bash(git push:*)\n---\nShip it");
    const untrusted = inspectWorkspaceTrust(project);
    expect(untrusted.status).toBe("untrusted");
    // Skills first, then commands, each in the order discovery reads them.
    expect(untrusted.widening).toEqual([
      {
        file: ".claude/skills/gen/SKILL.md",
        key: "allowed-tools",
        grants: expect.stringContaining("Write, Bash(make:*)"),
        known: true,
      },
      {
        file: ".warden/commands/ship.md",
        key: "allowed-tools",
        grants: expect.stringContaining("Bash(git push:*)"),
        known: true,
      },
    ]);
    trustWorkspace(untrusted);
    expect(inspectWorkspaceTrust(project).status).toBe("trusted");
    expect((await discover(true)).skills.map((skill) => skill.name)).toEqual(["plain", "gen"]);
    // The instructions grant nothing: editing them keeps the trust; editing a grant does not.
    writeFileSync(plain, "---\ndescription: only text\n---\nNew words.\n");
    writeFileSync(granting, "---\ndescription: g\nallowed-tools: Write, Bash(make:*)\n---\nNew words.\n");
    expect(inspectWorkspaceTrust(project)).toMatchObject({ status: "untrusted", changedSinceTrusted: true });
  });
});

describe("arguments", () => {
  it("puts in $ARGUMENTS and $1..$9, and appends arguments the text does not use", () => {
    expect(substituteArguments("Fix $1 in $2; all: $ARGUMENTS", 'a.ts "b c"')).toBe('Fix a.ts in b c; all: a.ts "b c"');
    expect(substituteArguments("Just do it.\n", "now please")).toBe("Just do it.\n\nARGUMENTS: now please");
    expect(substituteArguments("Just do it.", "")).toBe("Just do it.");
  });

  it("expands /name args from a command first, then a skill, and leaves other prompts alone", async () => {
    write(join(project, ".warden", "commands", "fix.md"), "---\ndescription: x\n---\nFix issue $ARGUMENTS now");
    skillFile(join(project, ".warden"), "fix", "description: the skill");
    skillFile(join(project, ".warden"), "lint", "description: lint", "Lint $1.");
    const catalog = await discover();
    expect(await expandSlashPrompt("/fix 42", catalog)).toMatchObject({ kind: "command", prompt: "Fix issue 42 now" });
    const skill = await expandSlashPrompt("/lint src", catalog);
    expect(skill).toMatchObject({ kind: "skill" });
    expect(skill?.prompt).toContain("Lint src.");
    expect(skill?.prompt).toContain(join(project, ".warden", "skills", "lint"));
    expect(await expandSlashPrompt("/tmp/file is broken", catalog)).toBeUndefined();
    expect(await expandSlashPrompt("/unknown thing", catalog)).toBeUndefined();
  });

  it("puts each word where the frontmatter's `arguments` name it, and refuses names $name cannot be", async () => {
    skillFile(join(project, ".warden"), "component", "arguments: name kind", "Make $name, a $kind. ($names stays)");
    write(join(project, ".warden", "commands", "move.md"), "---\narguments:\n  - from\n  - to\n---\nMove $from to $to");
    const broken = skillFile(join(project, ".warden"), "broken", "arguments: [ok, not-a-name]");
    const catalog = await discover();
    expect(catalog.skills.find((s) => s.name === "component")?.argumentNames).toEqual(["name", "kind"]);
    const skill = await expandSlashPrompt('/component "Search Bar" form', catalog);
    expect(skill?.prompt).toContain("Make Search Bar, a form. ($names stays)");
    expect(skill?.prompt).not.toContain("ARGUMENTS:");
    expect(await expandSlashPrompt("/move a.txt b.txt", catalog)).toMatchObject({ prompt: "Move a.txt to b.txt" });
    expect(catalog.warnings.find((w) => w.startsWith(broken))).toContain('"not-a-name" is not a name');
  });
});

describe("the listing the model sees up front", () => {
  const catalogOf = (count: number, description: string): SkillCatalog => ({
    skills: Array.from({ length: count }, (_, i) => ({
      name: `skill-${i}`,
      description,
      level: "user" as const,
      file: `/s/${i}/SKILL.md`,
      dir: `/s/${i}`,
      allowedTools: [],
      context: "inline" as const,
      disableModelInvocation: i === 0,
      frontmatterKeys: [],
    })),
    commands: [],
    projectTrusted: true,
    warnings: [],
  });

  it("lists names and descriptions, never a user-only skill, whole when it fits", () => {
    const text = skillListingText(catalogOf(3, "Does things"), 8_000) ?? "";
    expect(text).toContain("- skill-1: Does things\n- skill-2: Does things");
    expect(text).not.toContain("skill-0");
  });

  it("keeps within the budget: shorter descriptions first, then names left out with a note", () => {
    const long = "x".repeat(900);
    const shortened = skillListingText(catalogOf(20, long), 4_000) ?? "";
    expect(Buffer.byteLength(shortened)).toBeLessThanOrEqual(4_000);
    expect(shortened.match(/^- skill-\d+: x+…$/gm)).toHaveLength(19);
    const names = skillListingText(catalogOf(400, long), 2_000) ?? "";
    expect(Buffer.byteLength(names)).toBeLessThanOrEqual(2_000);
    expect(names).toContain("- skill-1\n");
    expect(names).toMatch(/more skills exist that did not fit/);
    // 1% of the window, at four bytes a token.
    expect(listingBudget(200_000)).toBe(8_000);
    expect(listingBudget(1_000_000)).toBe(40_000);
  });
});

describe("the Skill tool", () => {
  async function setUp(projectTrusted = true) {
    skillFile(
      join(home, ".warden"),
      "safe",
      "name: safe\ndescription: only text\nargument-hint: <who>",
      "Greet $ARGUMENTS.",
    );
    skillFile(
      join(home, ".warden"),
      "granting",
      "description: grants\nallowed-tools: Write, Bash(make:*)",
      "Build it.",
    );
    skillFile(join(project, ".warden"), "proj-granting", "description: p\nallowed-tools: Write", "Project build.");
    skillFile(join(home, ".warden"), "forked", "description: f\ncontext: fork");
    skillFile(join(home, ".warden"), "user-only", "description: u\ndisable-model-invocation: true");
    const catalog = await discover(projectTrusted);
    return { catalog, tool: createSkillTool(catalog) };
  }

  function contextFor(permissions: ToolPermissionContext, tools: ToolUseContext["options"]["tools"]): ToolUseContext {
    return createToolUseContext({
      options: {
        tools,
        model: "test",
        cwd: project,
        sessionId: "s",
        sessionDir: join(home, "s"),
        isNonInteractive: true,
      },
      appState: { toolPermissionContext: permissions },
    });
  }

  function permissionsWith(
    rules: { allow?: string[]; deny?: string[]; ask?: string[] },
    mode: "default" | "bypassPermissions" = "default",
  ) {
    const base = emptyPermissionContext(project, mode);
    return { ...base, rules: rulesFromStrings(rules, "cliArg", project, "--flags").rules };
  }

  it("refuses unknown, user-only and forked skills with words the model can act on", async () => {
    const { tool } = await setUp();
    const context = contextFor(emptyPermissionContext(project), [tool]);
    const check = (skill: string) => tool.validateInput?.({ skill }, context);
    expect(await check("nope")).toMatchObject({ result: false, message: expect.stringContaining("Skills: ") });
    expect(await check("user-only")).toMatchObject({
      result: false,
      message: expect.stringContaining("only be run by the user"),
    });
    // A forked skill needs the session's subagent host; this bare context has none.
    expect(await check("forked")).toMatchObject({
      result: false,
      message: expect.stringContaining("but this session cannot run subagents"),
    });
    expect(await check("/safe")).toEqual({ result: true });
  });

  it("reads the folders again for a skill it does not know: one written after the start is found", async () => {
    const { catalog } = await setUp();
    let rescans = 0;
    const tool = createSkillTool(catalog, {
      rescan: () => {
        rescans++;
        return discover();
      },
    });
    const context = contextFor(emptyPermissionContext(project), [tool]);
    expect(await tool.validateInput?.({ skill: "safe" }, context)).toEqual({ result: true });
    // A known skill costs no reading.
    expect(rescans).toBe(0);
    expect(await tool.validateInput?.({ skill: "later" }, context)).toMatchObject({ result: false });
    expect(rescans).toBe(1);
    skillFile(join(project, ".claude"), "later", "description: written mid-session", "Do it later.");
    expect(await tool.validateInput?.({ skill: "later" }, context)).toEqual({ result: true });
    expect(rescans).toBe(2);
    const run = await tool.call({ skill: "later" }, context, async () => ({ behavior: "allow" }), undefined);
    expect(JSON.stringify(run.newMessages)).toContain("Do it later.");
  });

  it("decides deny rules, then ask rules, then allow rules, then safe properties, else ask", async () => {
    const { tool } = await setUp();
    const decide = async (skill: string, rules: Parameters<typeof permissionsWith>[0], mode?: "bypassPermissions") => {
      const permissions = permissionsWith(rules, mode);
      return hasPermissionsToUseTool(tool, { skill }, contextFor(permissions, [tool]), permissions);
    };
    // Only safe properties: allowed unasked.
    expect((await decide("safe", {})).behavior).toBe("allow");
    // allowed-tools is not a safe property: asked (and the suggestion names the skill).
    const asked = await decide("granting", {});
    expect(asked).toMatchObject({ behavior: "ask", message: expect.stringContaining("`allowed-tools`") });
    expect(asked.behavior === "ask" && asked.suggestions?.[0]).toMatchObject({
      rules: [{ toolName: "Skill", ruleContent: "granting" }],
    });
    expect((await decide("granting", { allow: ["Skill(granting)"] })).behavior).toBe("allow");
    expect((await decide("granting", { allow: ["Skill(gran:*)"] })).behavior).toBe("allow");
    // Deny wins over allow and over safe properties; the whole tool's deny too.
    expect((await decide("safe", { deny: ["Skill(safe)"], allow: ["Skill(safe)"] })).behavior).toBe("deny");
    expect((await decide("safe", { deny: ["Skill"] })).behavior).toBe("deny");
    // An ask rule asks even where a rule allows and in bypass mode.
    expect((await decide("safe", { ask: ["Skill(safe)"] }, "bypassPermissions")).behavior).toBe("ask");
    expect((await decide("granting", {}, "bypassPermissions")).behavior).toBe("allow");
  });

  it("injects the skill's text after its result, with the arguments in and where its files are", async () => {
    const { tool } = await setUp();
    const context = contextFor(emptyPermissionContext(project), [tool]);
    const result = await tool.call(
      { skill: "safe", args: "Marie" },
      context,
      async () => ({ behavior: "allow" }),
      undefined,
    );
    const message = result.newMessages?.[0];
    expect(message).toMatchObject({ role: "user", isMeta: true });
    const text = JSON.stringify(message);
    expect(text).toContain("Greet Marie.");
    expect(text).toContain(join(home, ".warden", "skills", "safe"));
    expect(result.contextModifier).toBeUndefined();
    expect(tool.mapToolResult(result.data, "id").content).toContain("The skill safe is loaded");
  });

  it("grants allowed-tools on the context the next calls get, never in the session's own rules", async () => {
    const { tool } = await setUp();
    const context = contextFor(emptyPermissionContext(project), [tool]);
    const result = await tool.call({ skill: "granting" }, context, async () => ({ behavior: "allow" }), undefined);
    expect(result.data.granted).toEqual(["Write", "Bash(make:*)"]);
    const after = result.contextModifier?.(context);
    expect(after).toBeDefined();
    if (!after) return;
    const allowAfter = after.getAppState().toolPermissionContext.rules.allow.map((r) => r.value);
    expect(allowAfter).toEqual([{ toolName: "Write" }, { toolName: "Bash", ruleContent: "make:*" }]);
    // The session's state itself is untouched: the grants end with the prompt's context.
    expect(context.getAppState().toolPermissionContext.rules.allow).toEqual([]);
    // A state change made after the skill (plan mode, a saved rule) still shows through.
    context.setAppState((prev) => ({
      ...prev,
      toolPermissionContext: { ...prev.toolPermissionContext, mode: "plan" },
    }));
    expect(after.getAppState().toolPermissionContext.mode).toBe("plan");
    expect(after.getAppState().toolPermissionContext.rules.allow).toHaveLength(2);
  });

  it("grants nothing for a project skill until the folder is trusted", async () => {
    const untrusted = await setUp(false);
    const context = contextFor(emptyPermissionContext(project), [untrusted.tool]);
    const result = await untrusted.tool.call(
      { skill: "proj-granting" },
      context,
      async () => ({ behavior: "allow" }),
      undefined,
    );
    expect(result.contextModifier).toBeUndefined();
    expect(result.data.granted).toEqual([]);
    expect(untrusted.tool.mapToolResult(result.data, "id").content).toContain("once the folder is trusted");
    rmSync(join(home, ".warden"), { recursive: true, force: true });
    rmSync(join(project, ".warden"), { recursive: true, force: true });
    const trusted = await setUp(true);
    const granted = await trusted.tool.call(
      { skill: "proj-granting" },
      context,
      async () => ({ behavior: "allow" }),
      undefined,
    );
    expect(granted.data.granted).toEqual(["Write"]);
  });
});
