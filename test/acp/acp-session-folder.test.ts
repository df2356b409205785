// The folder an editor opens a session in, checked by the built `warden acp` driven by the official
// ACP SDK's client side: a folder that is not there, a file, or a relative path is refused as bad
// params naming the problem (not opened as a session whose every tool then fails, nor answered as
// an internal error), and a session in the real folder opens after them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, startEditor } from "./editor-client.js";

describe("warden acp: the folder of session/new", () => {
  it("refuses a folder that is not there, a file and a relative path, then opens the real folder", async () => {
    const { base, home, project } = editorProject("warden-acp-folder-");
    const script = join(base, "model.jsonl");
    writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "hi" }] })}\n`);
    const file = join(project, "notes.md");
    writeFileSync(file, "notes\n");

    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    const code = await editor.run(async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const refusal = (cwd: string) =>
        agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }).then(
          () => undefined,
          (error: unknown) => error as acp.RequestError,
        );
      const missing = await refusal(join(base, "no-such-folder"));
      expect(missing?.code).toBe(-32602);
      expect(missing?.message).toContain(`cwd ${join(base, "no-such-folder")} does not exist`);
      const notFolder = await refusal(file);
      expect(notFolder?.code).toBe(-32602);
      expect(notFolder?.message).toContain(`cwd ${file} is not a folder`);
      const relative = await refusal("project");
      expect(relative?.code).toBe(-32602);
      expect(relative?.message).toContain('cwd "project" must be an absolute path');

      const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
      const answer = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "hello" }],
      });
      expect(answer.stopReason).toBe("end_turn");
    });
    expect(code, editor.stderr()).toBe(0);
  }, 60_000);
});
