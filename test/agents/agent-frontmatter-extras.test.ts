// An agent's frontmatter `skills` and `memory`: the skills' text and its MEMORY.md reach the
// subagent's system prompt (read from the request the provider gets).
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/config/agent-files.js";
import { createSession } from "../../src/loop/session.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { BUILT_IN_AGENTS } from "../../src/tools/agent/built-in.js";
import { builtInTools } from "../../src/tools/registry.js";

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

  it("a memory scope Claude Code does not have makes the file an issue with the reason", () => {
    const parsed = parseAgentFile("/x/a.md", "---\nname: a\ndescription: d\nmemory: forever\n---\nbody\n", "user");
    expect(parsed).toMatchObject({ issue: { reason: expect.stringContaining("memory") } });
  });
});
