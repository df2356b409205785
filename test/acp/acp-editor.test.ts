// `warden acp` using what the editor offers: its file system (Read sees the unsaved buffer, not
// the disk; Edit and Write land through the editor; a buffer changed after the read is caught as
// stale) and its terminals (Bash runs in one the editor spawns, shown in the tool call, killed on
// cancel), and not its terminals when the command must run in the sandbox.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { beforeAll, describe, expect, it } from "vitest";
import { probeBubblewrap } from "../../src/shell/sandbox/index.js";
import { ROOT, startEditor, updatesOf, waitFor } from "./editor-client.js";

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli.js")))
    throw new Error("run `npm run build` first: the test spawns the built CLI");
});

function setUp(turns: unknown[]) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-acp-editor-")));
  const home = join(base, "home");
  const project = join(base, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  const script = join(base, "script.jsonl");
  writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return { base, home, project, script };
}

function toolUse(id: string, name: string, input: Record<string, unknown>) {
  return { content: [{ type: "tool_use", id, name, input }] };
}

const FULL_CAPABILITIES: acp.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

/** Opens a session with every editor capability, sends one prompt and expects its turn to end normally. */
async function promptOnce(agent: acp.ClientContext, project: string, text: string): Promise<void> {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: FULL_CAPABILITIES,
  });
  const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  const answer = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  expect(answer.stopReason).toBe("end_turn");
}

function transcriptOf(home: string, sessionId: string): string {
  const dir = join(home, ".warden", "projects");
  const [slug] = readdirSync(dir);
  return readFileSync(join(dir, slug as string, `${sessionId}.jsonl`), "utf8");
}

function resultText(update: acp.SessionUpdate | undefined): string {
  if (update?.sessionUpdate !== "tool_call_update") return "";
  return (update.content ?? [])
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("");
}

describe("warden acp with the editor's file system and terminals", () => {
  it("reads the editor's buffers, writes through the editor, runs Bash in its terminal, kills it on cancel", async () => {
    const notes = "PROJECT/notes.md";
    const turns = [
      toolUse("read1", "Read", { file_path: `{{cwd}}/notes.md` }),
      // The person types in the buffer while this edit waits for permission: the edit is refused as stale.
      toolUse("edit1", "Edit", { file_path: `{{cwd}}/notes.md`, old_string: "buffer line", new_string: "edited line" }),
      toolUse("read2", "Read", { file_path: `{{cwd}}/notes.md` }),
      toolUse("edit2", "Edit", { file_path: `{{cwd}}/notes.md`, old_string: "buffer line", new_string: "edited line" }),
      toolUse("write1", "Write", { file_path: `{{cwd}}/sub/new.txt`, content: "hello\n" }),
      toolUse("bash1", "Bash", { command: "echo from-terminal > out.txt; cat out.txt; echo $WARDEN; cd sub && pwd" }),
      toolUse("bash2", "Bash", { command: "pwd" }),
      { content: [{ type: "text", text: "All done." }] },
      // Prompt 2: a command the editor's terminal runs until the prompt is cancelled.
      toolUse("bash3", "Bash", { command: "echo started; while true; do sleep 1; done" }),
      { content: [{ type: "text", text: "never reached" }] },
    ];
    const { home, project, script } = setUp(turns);
    const notesPath = notes.replace("PROJECT", project);
    writeFileSync(notesPath, "disk line\n");
    const editor = startEditor(["--model", `replay:${script}`], { cwd: project, home });
    // Open in the editor with unsaved changes: the buffer is not what the disk holds.
    editor.buffers.set(notesPath, "buffer line\n");
    editor.answer = (request) => {
      if (request.toolCall.toolCallId === "edit1") editor.buffers.set(notesPath, "buffer line\ntyped by the person\n");
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    };
    let sessionId = "";
    const code = await editor.run(async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: FULL_CAPABILITIES,
      });
      const created = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
      sessionId = created.sessionId;
      const first = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Fix the notes" }],
      });
      expect(first.stopReason).toBe("end_turn");

      const results = updatesOf(editor.updates, "tool_call_update").filter((u) => u.status !== "in_progress");
      const byId = (id: string) => results.find((u) => u.toolCallId === id);
      // Read showed the buffer, never the disk.
      expect(resultText(byId("read1"))).toContain("buffer line");
      expect(resultText(byId("read1"))).not.toContain("disk line");
      // The buffer changed after the read: the edit is stale, and nothing was written by it.
      expect(byId("edit1")).toMatchObject({ status: "failed" });
      expect(resultText(byId("edit1"))).toMatch(/modified since it was last read/);
      expect(resultText(byId("read2"))).toContain("typed by the person");
      expect(byId("edit2")).toMatchObject({ status: "completed" });
      expect(byId("write1")).toMatchObject({ status: "completed" });
      // Both changes went through the editor (which saved them).
      expect(editor.writes).toEqual([
        { path: notesPath, content: "edited line\ntyped by the person\n" },
        { path: join(project, "sub", "new.txt"), content: "hello\n" },
      ]);
      expect(readFileSync(notesPath, "utf8")).toBe("edited line\ntyped by the person\n");
      expect(editor.reads.filter((path) => path === notesPath).length).toBeGreaterThanOrEqual(4);
      // Every change was still asked about, the read-only `pwd` was not: the permission engine is the same.
      expect(editor.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual([
        "edit1",
        "edit2",
        "write1",
        "bash1",
      ]);

      // Bash ran in editor terminals, shown live in its tool call and kept in the final update.
      expect(editor.terminals).toHaveLength(2);
      const [term1, term2] = editor.terminals;
      expect(term1).toMatchObject({ cwd: project, released: true, killed: false });
      expect(term1?.env.WARDEN).toBe("1");
      expect(term1?.output).toContain("from-terminal");
      const live = updatesOf(editor.updates, "tool_call_update").find(
        (u) => u.toolCallId === "bash1" && u.status === "in_progress" && u.content !== undefined,
      );
      expect(live?.content).toEqual([{ type: "terminal", terminalId: term1?.id }]);
      const done = byId("bash1");
      expect(done?.status).toBe("completed");
      expect(done?.content?.[0]).toEqual({ type: "terminal", terminalId: term1?.id });
      expect(resultText(done)).toContain("from-terminal\n1\n");
      // The `cd` carried over to the next command, as in a local shell.
      expect(resultText(done)).toContain(join(project, "sub"));
      expect(term2?.output.trim()).toBe(join(project, "sub"));
      expect(resultText(byId("bash2"))).toContain(join(project, "sub"));

      // The model read the editor's text (what the transcript recorded as Read's result).
      const transcript = transcriptOf(home, sessionId);
      expect(transcript).toContain("buffer line");
      expect(transcript).not.toContain("disk line");

      // Prompt 2: cancelled while the command runs; the terminal is killed and released.
      const cancelled = waitFor(() => (editor.terminals[2]?.output ?? "").includes("started")).then(() =>
        agent.notify(acp.methods.agent.session.cancel, { sessionId }),
      );
      const second = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "Run it" }],
      });
      await cancelled;
      expect(second.stopReason).toBe("cancelled");
      const term3 = editor.terminals[2];
      // The call is settled at once; its terminal is killed, read and released as the tool winds down.
      await waitFor(() => term3?.killed === true && term3.released);
      await term3?.exit;
      expect(term3?.child.exitCode === null && term3?.child.signalCode !== null).toBe(true);
      expect(updatesOf(editor.updates, "tool_call_update").at(-1)).toMatchObject({
        toolCallId: "bash3",
        status: "failed",
      });
    });
    expect(code, editor.stderr()).toBe(0);
  });

  it("kills the editor's terminal when the command runs past its timeout", async () => {
    const { home, project, script } = setUp([
      toolUse("bash1", "Bash", { command: "echo begun; while true; do sleep 1; done", timeout: 1500 }),
      { content: [{ type: "text", text: "It timed out." }] },
    ]);
    const editor = startEditor(["--model", `replay:${script}`, "--allowedTools", "Bash"], { cwd: project, home });
    const code = await editor.run((agent) => promptOnce(agent, project, "Run it"));
    expect(code, editor.stderr()).toBe(0);
    expect(editor.terminals).toHaveLength(1);
    expect(editor.terminals[0]).toMatchObject({ killed: true, released: true });
    const done = updatesOf(editor.updates, "tool_call_update").find(
      (u) => u.toolCallId === "bash1" && u.status !== "in_progress",
    );
    expect(done).toMatchObject({ status: "failed" });
    expect(done?.content?.[0]).toEqual({ type: "terminal", terminalId: editor.terminals[0]?.id });
    expect(resultText(done)).toContain("begun");
    expect(resultText(done)).toMatch(/timed out|timeout/i);
  });

  it("keeps a command the sandbox must wrap out of the editor's terminal", async () => {
    const availability = await probeBubblewrap();
    if (!availability.available) throw new Error(`bubblewrap is needed for this test: ${availability.reason}`);
    const { home, project, script } = setUp([
      toolUse("bash1", "Bash", { command: "echo in-sandbox > marker.txt; cat marker.txt" }),
      { content: [{ type: "text", text: "Done." }] },
    ]);
    const editor = startEditor(
      ["--model", `replay:${script}`, "--settings", JSON.stringify({ sandbox: { enabled: true } })],
      { cwd: project, home },
    );
    const code = await editor.run((agent) => promptOnce(agent, project, "Run it"));
    expect(code, editor.stderr()).toBe(0);
    expect(editor.terminals).toEqual([]);
    expect(readFileSync(join(project, "marker.txt"), "utf8")).toBe("in-sandbox\n");
    const done = updatesOf(editor.updates, "tool_call_update").find(
      (u) => u.toolCallId === "bash1" && u.status !== "in_progress",
    );
    expect(done).toMatchObject({ status: "completed" });
    expect(resultText(done)).toContain("in-sandbox");
  });
});
