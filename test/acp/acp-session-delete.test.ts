// ACP's session/delete through the official SDK's client: a saved session leaves session/list with
// its transcript and its folder; one open in the editor is closed first; an id that names no saved
// session (or tries to reach outside the project folders) deletes nothing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { beforeAll, describe, expect, it } from "vitest";
import { INIT_WITHOUT_EDITOR_FS, ROOT, startEditor } from "./editor-client.js";

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli.js")))
    throw new Error("run `npm run build` first: the test spawns the built CLI");
});

describe("warden acp session/delete", () => {
  it("deletes a saved session and an open one, and nothing for an unknown id", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-acp-delete-")));
    const home = join(base, "home");
    const project = join(base, "project");
    for (const dir of [join(project, ".git"), home]) mkdirSync(dir, { recursive: true });
    const script = join(base, "script.jsonl");
    const turns = ["One.", "Two.", "Three."].map((text) => ({ content: [{ type: "text", text }] }));
    writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);

    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    const projects = join(home, ".warden", "projects");
    const saved = () => readdirSync(join(projects, readdirSync(projects)[0] as string));
    expect(
      await editor.run(async (agent) => {
        const init = await agent.request(acp.methods.agent.initialize, INIT_WITHOUT_EDITOR_FS);
        expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ delete: {} });
        const ids: string[] = [];
        for (const text of ["first", "second", "third"]) {
          const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
          ids.push(sessionId);
          await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
        }
        const [first, second, third] = ids as [string, string, string];
        // Each session has a folder of its own beside its transcript (the plan file lives there, ...).
        mkdirSync(join(projects, readdirSync(projects)[0] as string, first, "tool-results"), { recursive: true });
        await agent.request(acp.methods.agent.session.close, { sessionId: first });
        const listed = async () =>
          (await agent.request(acp.methods.agent.session.list, { cwd: project })).sessions.map((s) => s.sessionId);
        expect((await listed()).sort()).toEqual([...ids].sort());

        // A closed, saved session: its transcript and folder go, and it leaves the list.
        await agent.request(acp.methods.agent.session.delete, { sessionId: first });
        expect(saved().filter((name) => name.startsWith(first))).toEqual([]);
        expect((await listed()).sort()).toEqual([second, third].sort());

        // A session still open here is closed first: prompting it afterwards is refused.
        await agent.request(acp.methods.agent.session.delete, { sessionId: second });
        await expect(
          agent.request(acp.methods.agent.session.prompt, { sessionId: second, prompt: [{ type: "text", text: "x" }] }),
        ).rejects.toThrow(/no such session/);
        expect(await listed()).toEqual([third]);

        // Unknown ids, one aiming outside the project folders: "not found", which the SDK takes as
        // done (deleting is idempotent), and nothing else is touched.
        writeFileSync(join(base, "keep.jsonl"), "{}\n");
        await agent.request(acp.methods.agent.session.delete, { sessionId: "no-such-session" });
        await agent.request(acp.methods.agent.session.delete, { sessionId: "../../../keep" });
        expect(existsSync(join(base, "keep.jsonl"))).toBe(true);
        expect(await listed()).toEqual([third]);
        expect(saved().filter((name) => name.startsWith(third)).length).toBeGreaterThan(0);
      }),
      editor.stderr(),
    ).toBe(0);
  });
});
