// An agent's frontmatter `skills` and `memory`: the skills' text and its MEMORY.md reach the
// subagent's system prompt (read from the request the provider gets); a preloaded skill's
// `!`cmd`` lines run first, as Bash calls through the agent's real permission path.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/config/agent-files.js";
import { discoverSkills } from "../../src/config/skills/discover.js";
import { createSession } from "../../src/loop/session.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import type { AgentDefinition } from "../../src/tool/agents.js";
import { BUILT_IN_AGENTS } from "../../src/tools/agent/built-in.js";
import { builtInTools } from "../../src/tools/registry.js";
import { preloadAgentSkills } from "../../src/tools/skill/preload.js";
import { contextWith } from "../shell/helpers.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-agent-extras-home-"));
process.env.HOME = process.env.WARDEN_HOME;

describe("agent frontmatter skills and memory", () => {
  it("the skills' text and the agent's MEMORY.md join its system prompt", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-agent-extras-")));
    mkdirSync(join(cwd, ".claude", "skills", "house-style"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "skills", "house-style", "SKILL.md"),
      "---\nname: house-style\ndescription: How we write\n---\nAlways use tabs, never spaces.\n",
    );
    mkdirSync(join(cwd, ".claude", "agent-memory", "writer"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "agent-memory", "writer", "MEMORY.md"), "The build is `make all`.\n");
    const parsed = parseAgentFile(
      join(cwd, "writer.md"),
      "---\nname: writer\ndescription: Writes\nskills: house-style, missing-one\nmemory: project\n---\nYou write code.\n",
      "project",
    );
    if (!("definition" in parsed)) throw new Error(parsed.issue.reason);
    const script = join(cwd, "script.jsonl");
    const lines = [
      {
        content: [
          {
            type: "tool_use",
            id: "m1",
            name: "Agent",
            input: { description: "write", prompt: "Write", subagent_type: "writer" },
          },
        ],
      },
      { agent: "write", content: [{ type: "text", text: "written" }] },
      { content: [{ type: "text", text: "done" }] },
    ];
    writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const provider = createReplayProvider(script, { cwd });
    const systems: string[] = [];
    const s = createSession({
      provider: {
        ...provider,
        stream(request) {
          if (request.agent) systems.push(request.system);
          return provider.stream(request);
        },
      },
      model: "scripted",
      tools: builtInTools(),
      canUseTool: async () => ({ behavior: "allow" }),
      cwd,
      transcript: false,
      loadMemory: false,
      appState: { agentCatalog: { agents: [...BUILT_IN_AGENTS, parsed.definition], issues: [] } },
    });
    for await (const _ of s.submitMessage("go"));
    const system = systems.join("\n");
    expect(system).toContain("You write code.");
    expect(system).toContain("Always use tabs, never spaces.");
    expect(system).toContain("## missing-one\n(No skill of this name was found.)");
    expect(system).toContain("The build is `make all`.");
    expect(system).toContain(join(cwd, ".claude", "agent-memory", "writer"));
  });

  it("a preloaded skill's !`cmd` lines run through the agent's permission path, with the skill's grants", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-agent-skill-shell-")));
    writeFileSync(join(cwd, "marker.txt"), "contents-of-marker\n");
    mkdirSync(join(cwd, ".claude", "skills", "setup-check"), { recursive: true });
    writeFileSync(
      join(cwd, ".claude", "skills", "setup-check", "SKILL.md"),
      [
        "---",
        "name: setup-check",
        "description: Checks the setup",
        "allowed-tools: Bash(touch granted.txt)",
        "---",
        "Marker: !`cat marker.txt`",
        "Granted: !`touch granted.txt`",
        "Refused: !`touch refused.txt`",
        "",
      ].join("\n"),
    );
    const parsed = parseAgentFile(
      join(cwd, "checker.md"),
      "---\nname: checker\ndescription: Checks\nskills: setup-check\n---\nYou check.\n",
      "project",
    );
    if (!("definition" in parsed)) throw new Error(parsed.issue.reason);
    const { systems } = await runAgent(cwd, parsed.definition, {
      preloadSkills: async (names, context, canUseTool) =>
        preloadAgentSkills(await discoverSkills({ cwd, projectTrusted: true }), names, context, canUseTool),
    });
    const system = systems.join("\n");
    // Run: a read-only command as the default mode allows it, the skill's granted one by its grant.
    expect(system).toContain("Marker: contents-of-marker");
    expect(system).not.toContain("!`cat marker.txt`");
    expect(existsSync(join(cwd, "granted.txt"))).toBe(true);
    // Not run: it would ask, and nobody can answer in this session; the text says so in its place.
    expect(existsSync(join(cwd, "refused.txt"))).toBe(false);
    expect(system).toContain("Refused: [warden did not run `touch refused.txt`:");
  });

  it("a memory scope Claude Code does not have makes the file an issue with the reason", () => {
    const parsed = parseAgentFile("/x/a.md", "---\nname: a\ndescription: d\nmemory: forever\n---\nbody\n", "user");
    expect(parsed).toMatchObject({ issue: { reason: expect.stringContaining("memory") } });
  });
});

/** One Agent call to `definition` in a session whose calls go through the real permission engine (headless). */
async function runAgent(
  cwd: string,
  definition: AgentDefinition,
  extra: Partial<Parameters<typeof createSession>[0]>,
): Promise<{ systems: string[] }> {
  const script = join(cwd, "script.jsonl");
  const lines = [
    {
      content: [
        {
          type: "tool_use",
          id: "m1",
          name: "Agent",
          input: { description: "check", prompt: "Check", subagent_type: definition.agentType },
        },
      ],
    },
    { agent: "check", content: [{ type: "text", text: "checked" }] },
    { content: [{ type: "text", text: "done" }] },
  ];
  writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  const provider = createReplayProvider(script, { cwd });
  const systems: string[] = [];
  const s = createSession({
    provider: {
      ...provider,
      stream(request) {
        if (request.agent) systems.push(request.system);
        return provider.stream(request);
      },
    },
    model: "scripted",
    tools: builtInTools(),
    canUseTool: createCanUseTool({ askHandler: createHeadlessAskHandler() }),
    permissionContext: contextWith({ allow: ["Agent"] }, [cwd]),
    cwd,
    transcript: false,
    loadMemory: false,
    appState: { agentCatalog: { agents: [...BUILT_IN_AGENTS, definition], issues: [] } },
    ...extra,
  });
  for await (const _ of s.submitMessage("go"));
  return { systems };
}
