// A UserPromptSubmit hook that refuses a prompt, seen from an editor: the built `warden acp`
// driven by the official ACP SDK's client side. The person sees the hook's reason, the turn ends
// as a refusal (not a JSON-RPC internal error), nothing reaches the model, and the session takes
// the next prompt.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, openSession, startEditor, updatesOf } from "./editor-client.js";

describe("warden acp: a prompt a UserPromptSubmit hook refuses", () => {
  it("ends the turn as a refusal with the hook's reason shown, and the next prompt goes on", async () => {
    const { base, home, project } = editorProject("warden-acp-hook-");
    const hook = join(base, "refuse.sh");
    // Refuses prompts that mention a secret; lets the others through.
    writeFileSync(hook, '#!/bin/sh\nif grep -q SECRET; then echo "no secrets in prompts" >&2; exit 2; fi\nexit 0\n');
    chmodSync(hook, 0o755);
    const settings = join(base, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }] } }),
    );
    const script = join(base, "model.jsonl");
    writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "The model answered." }] })}\n`);

    const editor = startEditor(["--model", `replay:${script}`, "--settings", settings], { cwd: project, home });
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      const refused = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "here is my SECRET" }],
      });
      expect(refused.stopReason).toBe("refusal");
      const shown = updatesOf(editor.updates, "agent_message_chunk").map((u) =>
        u.content.type === "text" ? u.content.text : "",
      );
      expect(shown.join("")).toContain("blocked by a UserPromptSubmit hook: no secrets in prompts");
      expect(shown.join("")).not.toContain("The model answered.");

      const next = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "an ordinary question" }],
      });
      expect(next.stopReason).toBe("end_turn");
      expect(
        updatesOf(editor.updates, "agent_message_chunk")
          .map((u) => (u.content.type === "text" ? u.content.text : ""))
          .join(""),
      ).toContain("The model answered.");
    });
    expect(code, editor.stderr()).toBe(0);
  }, 60_000);
});

describe("warden acp: a Stop hook that sends the model back to work", () => {
  it("shows the editor the hook's feedback between the two answers, as a loaded session shows it", async () => {
    const { base, home, project } = editorProject("warden-acp-stop-hook-");
    const hook = join(base, "stop.sh");
    // Asks to continue once (the first time it runs), then lets the turn end.
    writeFileSync(
      hook,
      `#!/bin/sh\ntest -f ${base}/asked && exit 0\ntouch ${base}/asked\necho "run the tests first" >&2\nexit 2\n`,
    );
    chmodSync(hook, 0o755);
    const settings = join(base, "settings.json");
    writeFileSync(settings, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: hook }] }] } }));
    const script = join(base, "model.jsonl");
    const turns = [
      { content: [{ type: "text", text: "First answer." }] },
      { content: [{ type: "text", text: "Tests pass." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);

    const editor = startEditor(["--model", `replay:${script}`, "--settings", settings], { cwd: project, home });
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      const answer = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "fix it" }],
      });
      expect(answer.stopReason).toBe("end_turn");
    });
    expect(code, editor.stderr()).toBe(0);
    const shown = editor.updates.flatMap((u) =>
      (u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "user_message_chunk") &&
      u.content.type === "text"
        ? [`${u.sessionUpdate}: ${u.content.text}`]
        : [],
    );
    expect(shown).toEqual([
      "agent_message_chunk: First answer.",
      "user_message_chunk: A Stop hook asked you to continue: run the tests first",
      "agent_message_chunk: Tests pass.",
    ]);
  }, 60_000);
});
