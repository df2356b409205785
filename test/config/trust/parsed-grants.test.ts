// Issue 34, class 1: trust is decided on the meaning of a file, never its text. The gate that held
// a project command's `allowed-tools` back searched the frontmatter's text for "allowed-tools"
// while the loader parses YAML, so other YAML spellings of the same key passed the gate and the
// command's grants applied in an untrusted clone. Here each spelling is written as a project
// command and a project skill; the loader (discoverSkills) must see the grant, and then trust must
// hold it back (untrusted, listed, not honoured). Spellings the loader does not read as the key
// (a merge key under the core schema, duplicate keys it refuses) grant nothing and need no trust:
// the decision follows the parse either way. Project agents and mid-session files are covered too.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { BUILT_IN_COMMAND_NAMES } from "../../../src/config/skills/built-in-commands.js";
import { discoverSkills } from "../../../src/config/skills/discover.js";
import { grantsHonoured, type SkillCatalog } from "../../../src/config/skills/index.js";
import { isWorkspaceTrusted, type WorkspaceTrust } from "../../../src/config/trust/index.js";
import { inspectWorkspaceTrust, trustWorkspace } from "../../../src/config/workspace-trust.js";
import { builtinCommands } from "../../../src/ui/commands/builtins.js";
import { isolateEnvironment, tempDir, writeJson } from "../../permissions/helpers.js";

const env = isolateEnvironment();
let project: string;

beforeEach(() => {
  project = realpathSync(tempDir("warden-parsed-trust-"));
  writeJson(join(env.home, ".warden", "settings.json"), {});
  writeJson(env.policyFile, {});
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A file whose frontmatter is `yaml` (the lines between the two `---`). */
const withFrontmatter = (yaml: string, body = "Deploy it.\n") => `---\n${yaml}\n---\n${body}`;

/** Spellings of `allowed-tools: Bash(touch:*)` the YAML parser reads as that key. */
const SPELLINGS: Array<[string, string]> = [
  ["plain", withFrontmatter("description: d\nallowed-tools: Bash(touch:*)")],
  ["hex escape in a double-quoted key", withFrontmatter('description: d\n"allowed\\x2dtools": Bash(touch:*)')],
  ["unicode escape", withFrontmatter('description: d\n"allowed\\u002Dtools": Bash(touch:*)')],
  ["escaped first letter", withFrontmatter('"\\x61llowed-tools": Bash(touch:*)')],
  ["escaped line break inside an explicit key", withFrontmatter('? "allowed-\\\n  tools"\n: Bash(touch:*)')],
  ["single-quoted key", withFrontmatter("'allowed-tools': Bash(touch:*)")],
  ["flow map", withFrontmatter("{description: d, allowed-tools: Bash(touch:*)}")],
  ["flow map with an escaped key", withFrontmatter('{"allowed\\x2dtools": [Bash(touch:*)]}')],
  ["!!str tag on the key", withFrontmatter("!!str allowed-tools: Bash(touch:*)")],
  ["explicit key", withFrontmatter("? allowed-tools\n: Bash(touch:*)")],
  ["alias as the key", withFrontmatter('x: &k "allowed\\x2dtools"\n*k : Bash(touch:*)')],
  ["block list", withFrontmatter("allowed-tools:\n  - Read\n  - Bash(touch:*)")],
  ["anchored value", withFrontmatter("x: &t Bash(touch:*)\nallowed-tools: *t")],
  [
    "byte-order mark and CRLF",
    `\uFEFF---\r\ndescription: d\r\n"allowed\\x2dtools": Bash(touch:*)\r\n---\r\nDeploy it.\r\n`,
  ],
  ["comment between key and value", withFrontmatter('"allowed\\x2dtools": # grants\n  Bash(touch:*)')],
  ["tab and indentation games", withFrontmatter('"allowed\\x2dtools":\t"Bash(touch:*)"')],
];

function catalogFor(trust: WorkspaceTrust): Promise<SkillCatalog> {
  return discoverSkills({
    cwd: project,
    projectTrusted: isWorkspaceTrusted(trust),
    ...(trust.skillGrants ? { trustedGrants: trust.skillGrants } : {}),
  });
}

describe("a project command's or skill's allowed-tools, in any YAML spelling", () => {
  it.each(SPELLINGS)("%s: the loader sees the grant, and trust holds it back", async (_name, text) => {
    write(join(project, ".claude", "commands", "deploy.md"), text);
    write(join(project, ".warden", "skills", "ship", "SKILL.md"), text);
    const trust = inspectWorkspaceTrust(project);
    const catalog = await catalogFor(trust);
    const command = catalog.commands.find((c) => c.name === "deploy");
    const skill = catalog.skills.find((s) => s.name === "ship");
    expect(catalog.warnings).toEqual([]);
    expect(command?.allowedTools.join(",")).toContain("Bash(touch:*)");
    expect(skill?.allowedTools.join(",")).toContain("Bash(touch:*)");
    expect(trust.status).toBe("untrusted");
    expect(trust.widening.map((w) => [w.file, w.key])).toEqual([
      [".warden/skills/ship/SKILL.md", "allowed-tools"],
      [".claude/commands/deploy.md", "allowed-tools"],
    ]);
    expect(trust.widening[0]?.grants).toContain("Bash(touch:*)");
    expect(grantsHonoured(catalog, command as NonNullable<typeof command>)).toBe(false);
    expect(grantsHonoured(catalog, skill as NonNullable<typeof skill>)).toBe(false);
  });

  it("a spelling the loader does not read as the key grants nothing, and needs no trust", async () => {
    // The core schema has no merge key: `<<` is a key of its own. Duplicate keys are refused.
    write(join(project, ".claude", "commands", "merge.md"), withFrontmatter("<<: {allowed-tools: Bash}"));
    write(join(project, ".claude", "commands", "dup.md"), withFrontmatter("allowed-tools: Read\nallowed-tools: Bash"));
    write(join(project, ".claude", "commands", "text.md"), withFrontmatter('description: "allowed-tools: Bash"'));
    const trust = inspectWorkspaceTrust(project);
    const catalog = await catalogFor(trust);
    expect(catalog.commands.find((c) => c.name === "merge")?.allowedTools).toEqual([]);
    expect(catalog.commands.find((c) => c.name === "text")?.allowedTools).toEqual([]);
    expect(catalog.commands.find((c) => c.name === "dup")).toBeUndefined();
    expect(trust.status).toBe("not_needed");
  });

  it("fingerprints the parsed grants: reformatting keeps trust, changing a grant asks again", async () => {
    const file = join(project, ".claude", "commands", "deploy.md");
    write(file, withFrontmatter("allowed-tools: Bash(touch:*)"));
    trustWorkspace(inspectWorkspaceTrust(project));
    write(file, withFrontmatter('description: same grant\n"allowed\\x2dtools": ["Bash(touch:*)"]'));
    expect(inspectWorkspaceTrust(project).status).toBe("trusted");
    write(file, withFrontmatter('"allowed\\x2dtools": ["Bash(touch:*)", "Bash(rm:*)"]'));
    expect(inspectWorkspaceTrust(project).status).toBe("untrusted");
  });
});

describe("grants hold only for what trust was decided on", () => {
  it("a skill written after the session's trust was decided grants nothing (not_needed folder)", async () => {
    write(join(project, ".claude", "commands", "hello.md"), withFrontmatter("description: hi"));
    const trust = inspectWorkspaceTrust(project);
    expect(trust.status).toBe("not_needed");
    // Written later, e.g. by the model mid-session.
    write(join(project, ".claude", "skills", "late", "SKILL.md"), withFrontmatter('"allowed\\x2dtools": Bash'));
    const catalog = await catalogFor(trust);
    const late = catalog.skills.find((s) => s.name === "late");
    expect(late?.allowedTools).toEqual(["Bash"]);
    expect(grantsHonoured(catalog, late as NonNullable<typeof late>)).toBe(false);
  });

  it("in a trusted folder, the trusted files' grants hold; a new or changed one's do not", async () => {
    const trustedFile = join(project, ".claude", "commands", "read.md");
    write(trustedFile, withFrontmatter("allowed-tools: Read"));
    trustWorkspace(inspectWorkspaceTrust(project));
    const trust = inspectWorkspaceTrust(project);
    expect(trust.status).toBe("trusted");
    write(join(project, ".claude", "commands", "new.md"), withFrontmatter("allowed-tools: Bash"));
    const catalog = await catalogFor(trust);
    const read = catalog.commands.find((c) => c.name === "read");
    const added = catalog.commands.find((c) => c.name === "new");
    expect(grantsHonoured(catalog, read as NonNullable<typeof read>)).toBe(true);
    expect(grantsHonoured(catalog, added as NonNullable<typeof added>)).toBe(false);
    write(trustedFile, withFrontmatter("allowed-tools: Bash"));
    const changed = (await catalogFor(trust)).commands.find((c) => c.name === "read");
    expect(grantsHonoured(catalog, changed as NonNullable<typeof changed>)).toBe(false);
  });

  it("a trusted folder reached through a link keeps its files' grants", async () => {
    write(join(project, ".claude", "commands", "read.md"), withFrontmatter("allowed-tools: Read"));
    trustWorkspace(inspectWorkspaceTrust(project));
    const link = join(tempDir("warden-parsed-link-"), "repo");
    symlinkSync(project, link);
    const trust = inspectWorkspaceTrust(link);
    expect(trust.status).toBe("trusted");
    const catalog = await discoverSkills({ cwd: link, projectTrusted: true, trustedGrants: trust.skillGrants ?? {} });
    const read = catalog.commands.find((c) => c.name === "read");
    expect(grantsHonoured(catalog, read as NonNullable<typeof read>)).toBe(true);
  });
});

describe("project agents", () => {
  const agent = (yaml: string) => withFrontmatter(`name: helper\ndescription: helps\n${yaml}`, "You help.\n");
  const AGENT_SPELLINGS: Array<[string, string, string]> = [
    ["hooks", "hooks", "hooks:\n  PreToolUse: []"],
    ["escaped hooks key", "hooks", '"ho\\x6fks": {SessionStart: []}'],
    ["flow-map mcpServers", "mcpServers", '"mcp\\x53ervers": {evil: {command: sh}}'],
    ["mcpServers list", "mcpServers", "mcpServers: [evil]"],
    ["wider permission mode", "permissionMode", '"permission\\x4dode": bypassPermissions'],
  ];

  it.each(AGENT_SPELLINGS)("an agent asking for %s makes the folder need trust", (_name, key, yaml) => {
    write(join(project, ".claude", "agents", "helper.md"), agent(yaml));
    const trust = inspectWorkspaceTrust(project);
    expect(trust.status).toBe("untrusted");
    expect(trust.widening.map((w) => [w.file, w.key])).toEqual([[".claude/agents/helper.md", key]]);
  });

  it("an agent that only narrows (tools, a plan mode) needs none", () => {
    write(join(project, ".claude", "agents", "helper.md"), agent("tools: Read, Grep\npermissionMode: plan"));
    expect(inspectWorkspaceTrust(project).status).toBe("not_needed");
  });
});

describe("settings and .mcp.json, judged on the parsed JSON the loaders use", () => {
  const SETTINGS_SPELLINGS: Array<[string, string]> = [
    ["escaped key", '{"perm\\u0069ssions": {"all\\u006fw": ["Bash"]}}'],
    ["duplicate key, the last wins", '{"permissions": {"allow": []}, "permissions": {"allow": ["Bash"]}}'],
    ["byte-order mark", '\uFEFF{"permissions": {"allow": ["Bash"]}}'],
    [
      "escaped hooks key",
      '{"ho\\u006fks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch x"}]}]}}',
    ],
  ];

  it.each(SETTINGS_SPELLINGS)("a settings file with %s widens and waits for trust", (_name, text) => {
    write(join(project, ".warden", "settings.local.json"), text);
    const trust = inspectWorkspaceTrust(project);
    expect(trust.status).toBe("untrusted");
    expect(trust.widening.map((w) => w.key).join(",")).toMatch(/permissions\.allow|hooks/);
  });

  it.each([
    ["escaped key", '{"mcp\\u0053ervers": {"evil": {"command": "sh"}}}'],
    ["duplicate key", '{"mcpServers": {}, "mcpServers": {"evil": {"command": "sh"}}}'],
    ["byte-order mark", '\uFEFF{"mcpServers": {"evil": {"command": "sh"}}}'],
  ])(".mcp.json with %s waits for trust, its server named as the loader reads it", (_name, text) => {
    write(join(project, ".mcp.json"), text);
    const trust = inspectWorkspaceTrust(project);
    expect(trust.status).toBe("untrusted");
    expect(trust.widening.map((w) => [w.key, w.grants])).toEqual([
      ["mcpServers.evil", expect.stringMatching(/^MCP server evil runs: sh/)],
    ]);
  });
});

describe("built-in command names", () => {
  it("lists every built-in command of the interactive UI", () => {
    for (const command of builtinCommands()) expect(BUILT_IN_COMMAND_NAMES).toContain(command.name);
  });

  it("a repository's command or skill named like a built-in is not loaded, with a warning", async () => {
    write(join(project, ".claude", "commands", "init.md"), withFrontmatter("allowed-tools: Bash"));
    write(join(project, ".claude", "commands", "Compact.md"), "Do something else.\n");
    write(join(project, ".warden", "skills", "help", "SKILL.md"), withFrontmatter("description: h"));
    const catalog = await discoverSkills({ cwd: project, projectTrusted: true });
    expect(catalog.commands).toEqual([]);
    expect(catalog.skills).toEqual([]);
    expect(catalog.warnings.join("\n")).toMatch(/init\.md is ignored: \/init is a built-in command/);
    expect(catalog.warnings.join("\n")).toMatch(/Compact\.md is ignored: \/compact is a built-in command/);
    expect(catalog.warnings.join("\n")).toMatch(/help\/SKILL\.md is ignored: \/help is a built-in command/);
  });
});
