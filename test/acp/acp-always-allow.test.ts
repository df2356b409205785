// An editor's "always allow" for a command held back twice: by a part that needs a rule and by a
// file outside the working directories. The option names both and grants both, so the same
// command is not asked about again (it granted only the rule before). The built `warden acp`
// driven by the official ACP SDK's client side.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { editorProject, openSession, startEditor } from "./editor-client.js";

describe("warden acp: always allow", () => {
  it("grants the rule and the folder a command needs, and the same command then runs unasked", async () => {
    const { base, home, project } = editorProject("warden-acp-always-");
    const elsewhere = mkdtempSync(join(tmpdir(), "warden-acp-elsewhere-"));
    writeFileSync(join(elsewhere, "log.txt"), "from elsewhere\n");
    const bash = (id: string, folder: string) => ({
      content: [
        { type: "tool_use", id, name: "Bash", input: { command: `git init -q ${folder} && cat ${elsewhere}/log.txt` } },
      ],
    });
    const script = join(base, "model.jsonl");
    const turns = [bash("b1", "one"), bash("b2", "two"), { content: [{ type: "text", text: "Done." }] }];
    writeFileSync(script, turns.map((t) => JSON.stringify(t)).join("\n"));

    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    editor.answer = () => ({ outcome: { outcome: "selected", optionId: "allow_always" } });
    const code = await editor.run(async (agent) => {
      const sessionId = await openSession(agent, project);
      const done = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "init twice" }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
    expect(code, editor.stderr()).toBe(0);
    expect(editor.permissionRequests).toHaveLength(1);
    const always = editor.permissionRequests[0]?.options.find((o) => o.optionId === "allow_always");
    expect(always?.name).toBe(`Always allow Bash(git init:*) and files in ${elsewhere}`);
  });
});
