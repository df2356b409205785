// Journey: the bug fixed from an editor over ACP (`warden acp`, the built CLI, a test editor with
// every capability: its buffers, its terminals, its permission questions), the scripted capable
// model. What is checked is what the editor shows and does: the calls it is told about, the
// questions it answers, the edit written through its buffer, the tests run in its terminal, and the
// repository afterwards.

import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { startEditor, updatesOf } from "../acp/editor-client.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { bugRepo, changedLines, FIXED_SUM, testsPass } from "./helpers/bug-repo.js";
import { bugFixTurns } from "./helpers/capable-model.js";

describe("journey: fixing the bug from an editor (ACP)", () => {
  it("explores, runs the tests in the editor's terminal, edits through its buffer, asks the editor first", async () => {
    const project = bugRepo();
    const home = tempDir("warden-journey-acp-home-");
    const script = writeScript(tempDir("warden-journey-script-"), bugFixTurns());
    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    const code = await editor.run(async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      });
      const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
      const done = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "The sum test fails; fix it." }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
    expect(code, editor.stderr()).toBe(0);

    // The editor was asked before the test runs and the edit, never before the reads.
    const asked = editor.permissionRequests.map((r) => r.toolCall.toolCallId);
    expect(asked).toEqual(["f1", "f2", "f3"]);
    // The tests ran in the editor's terminals: failing, then passing.
    expect(editor.terminals.map((t) => t.output.match(/# (pass|fail) \d/g)?.join(" "))).toEqual([
      "# pass 0 # fail 1",
      "# pass 1 # fail 0",
    ]);
    // The edit went through the editor's buffer.
    expect(editor.writes).toEqual([{ path: join(project, "src/sum.js"), content: FIXED_SUM }]);
    // Every call was shown to its end: the failing test run as failed, the others completed.
    const ends = updatesOf(editor.updates, "tool_call_update").filter(
      (u) => u.status === "completed" || u.status === "failed",
    );
    expect(Object.fromEntries(ends.map((u) => [u.toolCallId, u.status]))).toEqual({
      fx1: "completed",
      fx2: "completed",
      fx3: "completed",
      f1: "failed",
      f2: "completed",
      f3: "completed",
    });
    const text = updatesOf(editor.updates, "agent_message_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""))
      .join("");
    expect(text).toContain("Fixed: `sum` now adds, and the test passes.");

    expect(testsPass(project)).toBe(true);
    expect(changedLines(project)).toEqual(["-  return a - b;", "+  return a + b;"]);
  }, 60_000);
});
