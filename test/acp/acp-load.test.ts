// ACP `session/load`: a Warden session from one `warden acp` process is loaded by id in another
// (an editor reopened): its history comes back as session/update notifications before the answer,
// and the next prompt continues that conversation (the model is sent the earlier turns) in the
// same transcript.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { INIT_WITHOUT_EDITOR_FS, ROOT, startEditor, updatesOf } from "./editor-client.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, "dist", "cli.js")))
    throw new Error("run `npm run build` first: the test spawns the built CLI");
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

describe("warden acp session/load", () => {
  it("replays a session's history to the editor and continues it", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-acp-load-")));
    const home = join(base, "home");
    const project = join(base, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(project, "notes.md"), "alpha\n");
    const script = join(base, "script.jsonl");
    const turns = [
      {
        content: [
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "read1", name: "Read", input: { file_path: join(project, "notes.md") } },
        ],
      },
      { content: [{ type: "text", text: "The notes say alpha." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);

    // The first editor session, with the replay model.
    const first = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    let sessionId = "";
    expect(
      await first.run(async (agent) => {
        await agent.request(acp.methods.agent.initialize, INIT_WITHOUT_EDITOR_FS);
        sessionId = (await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] })).sessionId;
        const answer = await agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "What do the notes say?" }],
        });
        expect(answer.stopReason).toBe("end_turn");
      }),
      first.stderr(),
    ).toBe(0);

    // Reopened in another process, on a model server that records what it is sent.
    server.enqueue(reply().text("Still alpha."));
    const second = startEditor(["--model", "anthropic:claude-sonnet-4-5"], {
      cwd: project,
      home,
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
    });
    expect(
      await second.run(async (agent) => {
        const init = await agent.request(acp.methods.agent.initialize, INIT_WITHOUT_EDITOR_FS);
        expect(init.agentCapabilities?.loadSession).toBe(true);
        const loaded = await agent.request(acp.methods.agent.session.load, {
          sessionId,
          cwd: project,
          mcpServers: [],
        });
        expect(loaded.modes?.currentModeId).toBe("default");
        // The whole history arrived before the answer, in order.
        const replayed = [...second.updates];
        expect(replayed.map((u) => u.sessionUpdate)).toEqual([
          "user_message_chunk",
          "agent_message_chunk",
          "tool_call",
          "tool_call_update",
          "agent_message_chunk",
        ]);
        expect(replayed[0]).toMatchObject({ content: { type: "text", text: "What do the notes say?" } });
        expect(replayed[1]).toMatchObject({ content: { type: "text", text: "Looking." } });
        expect(replayed[2]).toMatchObject({
          toolCallId: "read1",
          kind: "read",
          title: `Read: ${join(project, "notes.md")}`,
        });
        expect(replayed[3]).toMatchObject({ toolCallId: "read1", status: "completed" });
        expect(JSON.stringify(replayed[3])).toContain("alpha");
        expect(replayed[4]).toMatchObject({ content: { type: "text", text: "The notes say alpha." } });

        const answer = await agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "And now?" }],
        });
        expect(answer.stopReason).toBe("end_turn");
        const text = updatesOf(second.updates.slice(replayed.length), "agent_message_chunk")
          .map((u) => (u.content.type === "text" ? u.content.text : ""))
          .join("");
        expect(text).toBe("Still alpha.");

        // A session cannot be loaded twice, nor one that does not exist.
        await expect(
          agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] }),
        ).rejects.toThrow(/already open/);
        await expect(
          agent.request(acp.methods.agent.session.load, {
            sessionId: "00000000-0000-4000-8000-000000000000",
            cwd: project,
            mcpServers: [],
          }),
        ).rejects.toMatchObject({
          // "Resource not found", as session/delete answers for an unknown id.
          code: -32002,
          message: expect.stringMatching(/no conversation found with session ID: 00000000-0000-4000-8000-000000000000/),
        });
      }),
      second.stderr(),
    ).toBe(0);

    // The model was sent the earlier conversation, then the new prompt.
    const request = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    const sent = JSON.stringify(request.messages);
    expect(sent).toContain("What do the notes say?");
    expect(sent).toContain("The notes say alpha.");
    expect(sent).toContain(`"tool_use_id":"read1"`);
    expect(sent.indexOf("The notes say alpha.")).toBeLessThan(sent.indexOf("And now?"));
    // One transcript holds both parts of the conversation.
    const dir = join(home, ".warden", "projects");
    const [slug] = readdirSync(dir);
    const transcript = readFileSync(join(dir, slug as string, `${sessionId}.jsonl`), "utf8");
    expect(transcript).toContain("What do the notes say?");
    expect(transcript).toContain("And now?");
    expect(transcript).toContain("Still alpha.");
  });
});
