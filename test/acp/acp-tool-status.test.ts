// A tool call's status as an editor sees it, through the built `warden acp` and the official ACP
// SDK's client side: "pending" while it waits for the person, "in_progress" once allowed, then
// "completed"; a rejected call goes from "pending" to "failed" without ever running.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, openSession, startEditor, updatesOf } from "./editor-client.js";

describe("warden acp: a tool call's status around the permission request", () => {
  it("is in_progress once the person allows it, and never for a call they reject", async () => {
    const { base, home, project } = editorProject("warden-acp-status-");
    const script = join(base, "model.jsonl");
    const turns = [
      {
        content: [
          { type: "tool_use", id: "w1", name: "Write", input: { file_path: join(project, "a.txt"), content: "a\n" } },
        ],
      },
      {
        content: [
          { type: "tool_use", id: "w2", name: "Write", input: { file_path: join(project, "b.txt"), content: "b\n" } },
        ],
      },
      { content: [{ type: "text", text: "Done." }] },
    ];
    writeFileSync(script, turns.map((t) => JSON.stringify(t)).join("\n"));

    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    // What the editor had been told about each call when it was asked.
    const seenAtAsk: string[] = [];
    editor.answer = (request) => {
      seenAtAsk.push(JSON.stringify(editor.updates));
      const optionId = request.toolCall.toolCallId === "w1" ? "allow_once" : "reject_once";
      return { outcome: { outcome: "selected", optionId } };
    };
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      const done = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "write two files" }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
    expect(code, editor.stderr()).toBe(0);
    expect(existsSync(join(project, "a.txt"))).toBe(true);
    expect(existsSync(join(project, "b.txt"))).toBe(false);

    const statuses = (id: string) => [
      ...updatesOf(editor.updates, "tool_call")
        .filter((u) => u.toolCallId === id)
        .map((u) => u.status),
      ...updatesOf(editor.updates, "tool_call_update")
        .filter((u) => u.toolCallId === id)
        .map((u) => u.status),
    ];
    expect(statuses("w1")).toEqual(["pending", "in_progress", "completed"]);
    expect(statuses("w2")).toEqual(["pending", "failed"]);
    // It was still pending when the person was asked.
    expect(seenAtAsk[0]).not.toContain('"in_progress"');
  }, 60_000);
});
