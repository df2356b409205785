// A model request that fails, seen from an editor: the built `warden acp` driven by the official
// ACP SDK's client side. The prompt answers with a JSON-RPC error carrying the provider's message
// (what an editor shows as the turn's error), not a silent `end_turn` with nothing said, and the
// session takes the next prompt.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, openSession, startEditor, updatesOf } from "./editor-client.js";

describe("warden acp: a model request that fails", () => {
  it("answers the prompt with the model's error, and the next prompt goes on", async () => {
    const { base, home, project } = editorProject("warden-acp-model-error-");
    const script = join(base, "model.jsonl");
    const turns = [
      { error: { message: "invalid_request_error: the model name is not known to this account", status: 400 } },
      { content: [{ type: "text", text: "The model answered." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);

    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      const failed = await agent
        .request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hello" }] })
        .then(
          (answer) => ({ answer, error: undefined }),
          (error: unknown) => ({ answer: undefined, error }),
        );
      expect(failed.answer).toBeUndefined();
      expect(failed.error).toBeInstanceOf(acp.RequestError);
      expect((failed.error as acp.RequestError).message).toContain("the model name is not known to this account");

      const next = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "again" }],
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
