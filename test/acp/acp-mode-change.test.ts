// The session changing its own permission mode, seen from an editor: the built `warden acp` driven
// by the official ACP SDK's client side. A plan approved in the editor takes the session out of plan
// mode, and the editor is told (`current_mode_update`), as after its own session/set_mode, so its
// mode picker does not go on showing "plan" while edits run.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, openSession, startEditor, updatesOf } from "./editor-client.js";

describe("warden acp: a mode the session changes itself", () => {
  it("tells the editor when an approved plan leaves plan mode", async () => {
    const { base, home, project } = editorProject("warden-acp-mode-change-");
    const script = join(base, "model.jsonl");
    const turns = [
      { content: [{ type: "tool_use", id: "plan1", name: "ExitPlanMode", input: { plan: "1. Say hello." } }] },
      { content: [{ type: "text", text: "Planned and approved." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
      const answer = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "make a plan" }],
      });
      expect(answer.stopReason).toBe("end_turn");
    });
    expect(code, editor.stderr()).toBe(0);
    expect(editor.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(["plan1"]);
    // set_mode's own update, then the one the approved plan brought, after the call completed.
    expect(updatesOf(editor.updates, "current_mode_update").map((u) => u.currentModeId)).toEqual(["plan", "default"]);
    const completed = editor.updates.findIndex(
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "plan1" && u.status === "completed",
    );
    const modeUpdate = editor.updates.findLastIndex((u) => u.sessionUpdate === "current_mode_update");
    expect(completed).toBeGreaterThan(-1);
    expect(modeUpdate).toBeGreaterThan(completed);
  }, 60_000);
});
