// ACP's session/fork (an unstable part of the protocol) through the official SDK's client: the
// fork goes on from the source's conversation under a new id (the model is sent the earlier
// turns), while the source, still open, never sees the fork's turns; an unknown source is refused.
import { existsSync, mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordedRequest,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { INIT_WITHOUT_EDITOR_FS, ROOT, startEditor } from "./editor-client.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, "dist", "cli.js")))
    throw new Error("run `npm run build` first: the test spawns the built CLI");
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

/** The conversation a request carried, as text. */
const conversation = (request: RecordedRequest | undefined) =>
  JSON.stringify((request?.body as { messages?: unknown } | undefined)?.messages ?? []);

describe("warden acp session/fork", () => {
  it("continues a session's conversation under a new id and leaves the source as it was", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-acp-fork-")));
    const home = join(base, "home");
    const project = join(base, "project");
    for (const dir of [join(project, ".git"), home]) mkdirSync(dir, { recursive: true });
    const editor = startEditor(["--model", "anthropic:claude-sonnet-4-5"], {
      cwd: project,
      home,
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
    });
    const prompt = (agent: acp.ClientContext, sessionId: string, text: string) =>
      agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    expect(
      await editor.run(async (agent) => {
        const init = await agent.request(acp.methods.agent.initialize, INIT_WITHOUT_EDITOR_FS);
        expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ fork: {} });
        const { sessionId: source } = await agent.request(acp.methods.agent.session.new, {
          cwd: project,
          mcpServers: [],
        });
        server.enqueue(reply().text("Noted: kiwi."));
        await prompt(agent, source, "Remember the word kiwi.");

        // An MCP server over the ACP connection itself (not offered in initialize) is skipped, said on stderr.
        const forked = await agent.request(acp.methods.agent.session.fork, {
          sessionId: source,
          cwd: project,
          mcpServers: [{ type: "acp", name: "editor-tools", serverId: "srv-1" }],
        });
        expect(editor.stderr()).toMatch(/MCP server "editor-tools": servers over the ACP connection are not supported/);
        expect(forked.sessionId).not.toBe(source);
        expect(forked.modes?.currentModeId).toBe("default");

        // The fork's model is sent the source's turns, then the fork's own prompt.
        const before = server.requests.length;
        server.enqueue(reply().text("The word was kiwi."));
        await prompt(agent, forked.sessionId, "Which word was it?");
        const forkRequest = conversation(server.requests[before]);
        expect(forkRequest).toMatch(/Remember the word kiwi\..*Noted: kiwi\..*Which word was it\?/s);

        // The source, still open, goes on from its own conversation: the fork's turn is not in it.
        server.enqueue(reply().text("Yes."));
        await prompt(agent, source, "Still there?");
        const sourceRequest = conversation(server.requests[before + 1]);
        expect(sourceRequest).toMatch(/Remember the word kiwi\..*Noted: kiwi\..*Still there\?/s);
        expect(sourceRequest).not.toContain("Which word was it?");

        // Both are saved sessions of the project.
        const listed = await agent.request(acp.methods.agent.session.list, { cwd: project });
        expect(listed.sessions.map((s) => s.sessionId).sort()).toEqual([source, forked.sessionId].sort());

        // A source that was never saved: refused with a clear message, nothing opened.
        await expect(
          agent.request(acp.methods.agent.session.fork, { sessionId: "no-such-session", cwd: project }),
        ).rejects.toThrow(/no-such-session/);
      }),
      editor.stderr(),
    ).toBe(0);
  });
});
