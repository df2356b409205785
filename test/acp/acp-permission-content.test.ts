// What an editor shows with a permission request, from the built `warden acp` driven by the
// official ACP SDK's client side: a plan waiting for approval is in the request (it lives in the
// plan file, not in the call's input, so the person would otherwise approve it unseen), and an
// in-place sed comes with the edit it would make, as a diff; an Edit or Write is shown as the diff
// it proposes when announced and asked about, and keeps it once done (and when loaded again).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, openSession, startEditor, updatesOf } from "./editor-client.js";

describe("warden acp: what a permission request shows", () => {
  it("shows the plan to approve and the edit a sed would make", async () => {
    const { base, home, project } = editorProject("warden-acp-permission-content-");
    writeFileSync(join(project, "notes.md"), "alpha\nbeta\n");
    const script = join(base, "model.jsonl");
    const turns = [
      {
        content: [
          {
            type: "tool_use",
            id: "plan1",
            name: "ExitPlanMode",
            input: { plan: "1. Rename alpha to gamma in notes.md." },
          },
        ],
      },
      {
        content: [
          { type: "tool_use", id: "sed1", name: "Bash", input: { command: "sed -i 's/alpha/gamma/' notes.md" } },
        ],
      },
      { content: [{ type: "text", text: "Done." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
      const answer = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "rename it" }],
      });
      expect(answer.stopReason).toBe("end_turn");
    });
    expect(code, editor.stderr()).toBe(0);
    const [plan, sed] = editor.permissionRequests;
    expect(plan?.toolCall.toolCallId).toBe("plan1");
    const planText = (plan?.toolCall.content ?? [])
      .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
      .join("");
    expect(planText).toContain("1. Rename alpha to gamma in notes.md.");
    expect(sed?.toolCall.toolCallId).toBe("sed1");
    expect(sed?.toolCall.content).toContainEqual({
      type: "diff",
      path: join(project, "notes.md"),
      oldText: expect.stringContaining("alpha"),
      newText: expect.stringContaining("gamma"),
    });
    expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("gamma\nbeta\n");
  }, 60_000);

  it("shows an Edit's and a Write's change as a diff: announced, asked about, done and loaded again", async () => {
    const { base, home, project } = editorProject("warden-acp-edit-diff-");
    const notes = join(project, "notes.md");
    const fresh = join(project, "fresh.txt");
    writeFileSync(notes, "alpha\nbeta\n");
    const script = join(base, "model.jsonl");
    const turns = [
      { content: [{ type: "tool_use", id: "read1", name: "Read", input: { file_path: notes } }] },
      {
        content: [
          {
            type: "tool_use",
            id: "edit1",
            name: "Edit",
            input: { file_path: notes, old_string: "beta", new_string: "delta" },
          },
        ],
      },
      {
        content: [
          { type: "tool_use", id: "write1", name: "Write", input: { file_path: fresh, content: "new file\n" } },
        ],
      },
      { content: [{ type: "text", text: "Done." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
    const editDiff = { type: "diff", path: notes, oldText: "beta", newText: "delta" };
    const writeDiff = { type: "diff", path: fresh, oldText: null, newText: "new file\n" };
    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    let loaded: typeof editor.updates = [];
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      const answer = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "change the notes" }],
      });
      expect(answer.stopReason).toBe("end_turn");
      await agent.request(acp.methods.agent.session.close, { sessionId });
      const before = editor.updates.length;
      await agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
      loaded = editor.updates.slice(before);
    });
    expect(code, editor.stderr()).toBe(0);
    expect(readFileSync(notes, "utf8")).toBe("alpha\ndelta\n");
    expect(editor.permissionRequests.map((r) => r.toolCall.content)).toEqual([[editDiff], [writeDiff]]);
    const live = editor.updates.slice(0, editor.updates.length - loaded.length);
    for (const updates of [live, loaded]) {
      const announced = updatesOf(updates, "tool_call").filter((u) => u.toolCallId !== "read1");
      expect(announced.map((u) => u.content)).toEqual([[editDiff], [writeDiff]]);
      const done = updatesOf(updates, "tool_call_update").filter((u) => u.status === "completed");
      expect(done.find((u) => u.toolCallId === "edit1")?.content?.[0]).toEqual(editDiff);
      expect(done.find((u) => u.toolCallId === "write1")?.content?.[0]).toEqual(writeDiff);
    }
  }, 60_000);
});
