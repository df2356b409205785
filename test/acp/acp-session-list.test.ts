// ACP's session lifecycle beyond load: session/list shows the saved sessions (newest first, with
// their folder and a title: a rename's title, else the first prompt), session/resume continues one
// without replaying it, session/close frees it so it can be opened again.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
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

describe("warden acp session/list, session/resume and session/close", () => {
  it("lists saved sessions, resumes one without replaying it, and closes it", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-acp-list-")));
    const home = join(base, "home");
    const project = join(base, "project");
    const elsewhere = join(base, "elsewhere");
    for (const dir of [join(project, ".git"), elsewhere, home]) mkdirSync(dir, { recursive: true });
    const script = join(base, "script.jsonl");
    const turns = [
      { content: [{ type: "text", text: "Done one." }] },
      { content: [{ type: "text", text: "Done two." }] },
    ];
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);

    // Two sessions saved by one editor connection, one prompt each.
    const first = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    const ids: string[] = [];
    expect(
      await first.run(async (agent) => {
        await agent.request(acp.methods.agent.initialize, INIT_WITHOUT_EDITOR_FS);
        for (const text of ["Write the changelog", "Fix   the\nflaky test"]) {
          const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
          ids.push(sessionId);
          await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
        }
      }),
      first.stderr(),
    ).toBe(0);
    const [changelog, flaky] = ids as [string, string];
    // The first one renamed since, as Claude Code records a rename.
    const projects = join(home, ".warden", "projects");
    const [slug] = readdirSync(projects);
    appendFileSync(
      join(projects, slug as string, `${changelog}.jsonl`),
      `${JSON.stringify({ type: "custom-title", customTitle: "Release notes", sessionId: changelog })}\n`,
    );

    server.enqueue(reply().text("Resumed and done."));
    const second = startEditor(["--model", "anthropic:claude-sonnet-4-5"], {
      cwd: project,
      home,
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
    });
    expect(
      await second.run(async (agent) => {
        const init = await agent.request(acp.methods.agent.initialize, INIT_WITHOUT_EDITOR_FS);
        expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ list: {}, resume: {}, close: {} });

        const listed = await agent.request(acp.methods.agent.session.list, { cwd: project });
        // Newest first: the rename touched the changelog session last.
        expect(listed.sessions.map((s) => [s.sessionId, s.cwd, s.title])).toEqual([
          [changelog, project, "Release notes"],
          [flaky, project, "Fix the flaky test"],
        ]);
        expect(listed.sessions.every((s) => !Number.isNaN(Date.parse(s.updatedAt ?? "")))).toBe(true);
        expect(listed.nextCursor ?? undefined).toBeUndefined();
        expect((await agent.request(acp.methods.agent.session.list, { cwd: elsewhere })).sessions).toEqual([]);
        const all = await agent.request(acp.methods.agent.session.list, {});
        expect(all.sessions.map((s) => s.sessionId).sort()).toEqual([...ids].sort());

        const resumed = await agent.request(acp.methods.agent.session.resume, {
          sessionId: flaky,
          cwd: project,
          mcpServers: [],
        });
        expect(resumed.modes?.currentModeId).toBe("default");
        // Nothing replayed: the editor still shows the conversation.
        expect(second.updates).toEqual([]);
        const answer = await agent.request(acp.methods.agent.session.prompt, {
          sessionId: flaky,
          prompt: [{ type: "text", text: "Is it fixed?" }],
        });
        expect(answer.stopReason).toBe("end_turn");
        expect(updatesOf(second.updates, "agent_message_chunk").map((u) => u.content)).toEqual([
          { type: "text", text: "Resumed and done." },
        ]);
        await expect(
          agent.request(acp.methods.agent.session.resume, { sessionId: flaky, cwd: project, mcpServers: [] }),
        ).rejects.toThrow(/already open/);

        await agent.request(acp.methods.agent.session.close, { sessionId: flaky });
        await expect(
          agent.request(acp.methods.agent.session.prompt, { sessionId: flaky, prompt: [{ type: "text", text: "x" }] }),
        ).rejects.toThrow(/no such session/);
        await expect(agent.request(acp.methods.agent.session.close, { sessionId: flaky })).rejects.toThrow(
          /no such session/,
        );
        // Closed, it can be opened again.
        await agent.request(acp.methods.agent.session.resume, { sessionId: flaky, cwd: project, mcpServers: [] });
      }),
      second.stderr(),
    ).toBe(0);

    // The resumed prompt continued the saved conversation.
    const last = server.requests.at(-1)?.body as { messages: unknown } | undefined;
    const sent = JSON.stringify(last?.messages);
    expect(sent).toContain("Fix   the\\nflaky test");
    expect(sent.indexOf("Done two.")).toBeLessThan(sent.indexOf("Is it fixed?"));
  });
});
