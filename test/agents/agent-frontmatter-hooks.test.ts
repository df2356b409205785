// An agent's own hooks (its frontmatter's `hooks`): they run for that agent's tool calls only, and
// its Stop hooks run as SubagentStop; the session's calls are untouched.
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../src/config/agent-files.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { createSession } from "../../src/loop/session.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import type { AgentDefinition } from "../../src/tool/agents.js";
import type { CanUseTool } from "../../src/tool/types.js";
import { BUILT_IN_AGENTS } from "../../src/tools/agent/built-in.js";
import { builtInTools } from "../../src/tools/registry.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-agent-hooks-home-"));
process.env.HOME = process.env.WARDEN_HOME;

const allowAll: CanUseTool = async () => ({ behavior: "allow" });
const text = (value: string) => ({ type: "text", text: value });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

describe("agent frontmatter hooks", () => {
  it("run for the agent's calls only, and its Stop hooks run when it finishes", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-agent-hooks-")));
    const guard = join(cwd, "guard.sh");
    writeFileSync(
      guard,
      `#!/usr/bin/env bash\ncat >> '${join(cwd, "guard.log")}'\necho 'no shell for reviewers' >&2\nexit 2\n`,
    );
    chmodSync(guard, 0o755);
    const stop = join(cwd, "stop.sh");
    writeFileSync(stop, `#!/usr/bin/env bash\ncat >> '${join(cwd, "stop.log")}'\n`);
    chmodSync(stop, 0o755);
    const file = `---
name: reviewer
description: Reviews code
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ${guard}
  Stop:
    - hooks:
        - type: command
          command: ${stop}
---
You review code.
`;
    const parsed = parseAgentFile(join(cwd, "reviewer.md"), file, "project");
    if (!("definition" in parsed)) throw new Error(parsed.issue.reason);
    const reviewer: AgentDefinition = parsed.definition;
    const script = join(cwd, "script.jsonl");
    const lines = [
      { content: [toolUse("m1", "Agent", { description: "review", prompt: "Review", subagent_type: "reviewer" })] },
      { agent: "review", content: [toolUse("r1", "Bash", { command: "touch by-agent.txt" })] },
      { agent: "review", content: [text("reviewed")] },
      { content: [toolUse("m2", "Bash", { command: "touch by-session.txt" })] },
      { content: [text("done")] },
    ];
    writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const s = createSession({
      provider: createReplayProvider(script, { cwd }),
      model: "scripted",
      tools: builtInTools(),
      canUseTool: allowAll,
      cwd,
      transcript: false,
      loadMemory: false,
      appState: {
        hooks: new HookRunner({ config: {}, cwd, sessionId: "s-agent" }),
        agentCatalog: { agents: [...BUILT_IN_AGENTS, reviewer], issues: [] },
      },
    });
    for await (const _ of s.submitMessage("go"));
    expect(existsSync(join(cwd, "by-agent.txt"))).toBe(false);
    expect(existsSync(join(cwd, "by-session.txt"))).toBe(true);
    expect(JSON.parse(readFileSync(join(cwd, "guard.log"), "utf8"))).toMatchObject({
      tool_input: { command: "touch by-agent.txt" },
    });
    expect(JSON.parse(readFileSync(join(cwd, "stop.log"), "utf8"))).toMatchObject({
      hook_event_name: "SubagentStop",
      agent_type: "reviewer",
    });
  });

  it("a file whose hooks are not in settings' shape is not loaded, with the reason", () => {
    const parsed = parseAgentFile(
      "/x/bad.md",
      "---\nname: bad\ndescription: d\nhooks:\n  PreToolUse: 3\n---\nbody\n",
      "user",
    );
    expect(parsed).toMatchObject({ issue: { reason: expect.stringContaining("hooks.PreToolUse") } });
  });
});
