// ACP `session/load` of a session whose turns were cancelled, with the built `warden acp` and the
// official ACP SDK's client side: the note the loop leaves for the model ("[Request interrupted by
// user...]") is not shown again as if the person had typed it; their own prompts and the answers are.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, openSession, startEditor, updatesOf, waitFor } from "./editor-client.js";

describe("warden acp session/load after cancelled turns", () => {
  it("shows the person's prompts and the answers, not the interruption notes", async () => {
    const { base, home, project } = editorProject("warden-acp-load-cancelled-");
    const script = join(base, "model.jsonl");
    writeFileSync(join(project, "notes.md"), "notes\n");
    const turns = [
      // Prompt 1: a read, then an answer that is cancelled while the model is still on it.
      { content: [{ type: "tool_use", id: "read1", name: "Read", input: { file_path: join(project, "notes.md") } }] },
      { delay_ms: 60_000, content: [{ type: "text", text: "never shown" }] },
      // Prompt 2: cancelled while its command waits for the person's permission.
      { content: [{ type: "tool_use", id: "bash1", name: "Bash", input: { command: "touch made.txt" } }] },
      // Prompt 3: answered.
      { content: [{ type: "text", text: "The third answer." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    // The editor answers a permission request once the prompt was cancelled, as ACP asks it to.
    let cancelled = false;
    editor.answer = async () => {
      await waitFor(() => cancelled);
      return { outcome: { outcome: "cancelled" } };
    };
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      const prompt = (text: string) =>
        agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

      const first = prompt("first prompt");
      await waitFor(() => updatesOf(editor.updates, "tool_call_update").some((u) => u.toolCallId === "read1"));
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await first).stopReason).toBe("cancelled");

      const second = prompt("second prompt");
      await waitFor(() => editor.permissionRequests.length === 1);
      cancelled = true;
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await second).stopReason).toBe("cancelled");

      expect((await prompt("third prompt")).stopReason).toBe("end_turn");
      await agent.request(acp.methods.agent.session.close, { sessionId });

      const shownBefore = editor.updates.length;
      await agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
      const replayed = editor.updates.slice(shownBefore);
      const userText = updatesOf(replayed, "user_message_chunk").map((u) =>
        u.content.type === "text" ? u.content.text : "",
      );
      expect(userText).toEqual(["first prompt", "second prompt", "third prompt"]);
      const agentText = updatesOf(replayed, "agent_message_chunk").map((u) =>
        u.content.type === "text" ? u.content.text : "",
      );
      expect(agentText).toEqual(["The third answer."]);
    });
    expect(code, editor.stderr()).toBe(0);
  }, 60_000);
});
