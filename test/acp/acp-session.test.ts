// `warden acp` (the built CLI) driven by the official ACP SDK's client side through a whole
// session: initialize, session/new, a prompt with a file linked and a selection embedded,
// streamed message chunks and tool calls (kind, title, locations, results), a permission request
// answered in the "editor" (once, then always with the suggested rule, saved to settings), a
// mode change, and a cancel that stops a running command.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const CLI = join(ROOT, "bin", "warden.js");

let children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  children = [];
});

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "cli.js")))
    throw new Error("run `npm run build` first: the test spawns the built CLI");
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

function setUp() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "warden-acp-")));
  const home = join(base, "home");
  const project = join(base, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, "notes.md"), "# Notes\nalpha\n");
  const turns = [
    // Prompt 1: reads the linked file, then runs a command (asks), then answers.
    {
      content: [
        { type: "text", text: "Reading the notes." },
        { type: "tool_use", id: "read1", name: "Read", input: { file_path: join(project, "notes.md") } },
      ],
    },
    { content: [{ type: "tool_use", id: "bash1", name: "Bash", input: { command: "echo hi > out.txt" } }] },
    { content: [{ type: "text", text: "All done." }] },
    // Prompt 2: a long command, allowed always, cancelled while it runs.
    {
      content: [
        {
          type: "tool_use",
          id: "bash2",
          name: "Bash",
          // touch needs a rule (a redirection would be acceptEdits' to allow, not a rule's).
          input: { command: "touch started.txt; while true; do sleep 1; done" },
        },
      ],
    },
    { content: [{ type: "text", text: "never reached" }] },
  ];
  const script = join(base, "script.jsonl");
  writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return { base, home, project, script };
}

describe("warden acp", () => {
  it("runs a whole editor session: context, streaming, tool calls, permission requests, modes, cancel", async () => {
    const { home, project, script } = setUp();
    const child = spawn(process.execPath, [CLI, "acp", "--model", `replay:${script}`], {
      cwd: project,
      env: {
        ...process.env,
        HOME: home,
        WARDEN_HOME: join(home, ".warden"),
        WARDEN_MANAGED_SETTINGS: join(home, "none"),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const updates: acp.SessionUpdate[] = [];
    const permissionRequests: acp.RequestPermissionRequest[] = [];
    let answer: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse = () => ({
      outcome: { outcome: "cancelled" },
    });
    const editor = acp
      .client({ name: "test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params.update);
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        permissionRequests.push(params);
        return answer(params);
      });
    const stream = acp.ndJsonStream(
      Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>,
    );
    await editor.connectWith(stream, async (agent) => {
      const init = await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      });
      expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
      expect(init.agentInfo?.name).toBe("warden");
      expect(init.agentCapabilities?.promptCapabilities?.embeddedContext).toBe(true);

      const created = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
      expect(created.sessionId).toMatch(/[0-9a-f-]{36}/);
      expect(created.modes?.currentModeId).toBe("default");
      expect(created.modes?.availableModes.map((m) => m.id)).toEqual(
        expect.arrayContaining(["default", "acceptEdits", "plan", "dontAsk"]),
      );
      expect(created.modes?.availableModes.map((m) => m.id)).not.toContain("bypassPermissions");

      // Prompt 1: a file linked, a selection embedded; the command is allowed once in the editor.
      answer = () => ({ outcome: { outcome: "selected", optionId: "allow_once" } });
      const first = await agent.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [
          { type: "text", text: "Summarise" },
          { type: "resource_link", name: "notes.md", uri: pathToFileURL(join(project, "notes.md")).href },
          {
            type: "resource",
            resource: { uri: `${pathToFileURL(join(project, "main.ts")).href}#L3:4`, text: "const selected = 42;" },
          },
        ],
      });
      expect(first.stopReason).toBe("end_turn");
      const text = updates
        .filter(
          (u): u is Extract<acp.SessionUpdate, { sessionUpdate: "agent_message_chunk" }> =>
            u.sessionUpdate === "agent_message_chunk",
        )
        .map((u) => (u.content.type === "text" ? u.content.text : ""))
        .join("");
      expect(text).toBe("Reading the notes.All done.");
      const calls = updates.filter((u) => u.sessionUpdate === "tool_call");
      expect(calls).toEqual([
        expect.objectContaining({
          toolCallId: "read1",
          kind: "read",
          status: "pending",
          title: `Read: ${join(project, "notes.md")}`,
          locations: [{ path: join(project, "notes.md") }],
        }),
        expect.objectContaining({ toolCallId: "bash1", kind: "execute", title: "Bash: echo hi > out.txt" }),
      ]);
      const results = updates.filter((u) => u.sessionUpdate === "tool_call_update");
      expect(results).toEqual([
        expect.objectContaining({ toolCallId: "read1", status: "completed" }),
        // Allowed in the editor: running, then done.
        expect.objectContaining({ toolCallId: "bash1", status: "in_progress" }),
        expect.objectContaining({ toolCallId: "bash1", status: "completed" }),
      ]);
      expect(JSON.stringify(results[0])).toContain("alpha");
      // The editor was asked about the command, with the three choices and what would allow it: the
      // redirection is what asks (echo itself is read-only), so acceptEdits, not a rule for echo.
      expect(permissionRequests).toHaveLength(1);
      const asked = permissionRequests[0] as acp.RequestPermissionRequest;
      expect(asked.sessionId).toBe(created.sessionId);
      expect(asked.toolCall).toMatchObject({ toolCallId: "bash1", kind: "execute" });
      expect(asked.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
      expect(asked.options[1]?.name).toBe("Allow, and switch to acceptEdits mode");
      expect(readFileSync(join(project, "out.txt"), "utf8")).toBe("hi\n");
      // What the model was sent: the linked file by path, the selection's text in a context block.
      const transcriptDir = join(home, ".warden", "projects");
      const [slug] = readdirSync(transcriptDir);
      const transcript = readFileSync(join(transcriptDir, slug as string, `${created.sessionId}.jsonl`), "utf8");
      expect(transcript).toContain(`Summarise @${join(project, "notes.md")}`);
      expect(transcript).toContain(`<context ref=\\"${join(project, "main.ts")}#L3:4\\">\\nconst selected = 42;`);

      // Modes are the permission modes.
      await agent.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: "acceptEdits" });
      expect(updates.at(-1)).toEqual({ sessionUpdate: "current_mode_update", currentModeId: "acceptEdits" });
      await expect(
        agent.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: "bypassPermissions" }),
      ).rejects.toThrow(/unavailable mode/);
      await agent.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: "default" });

      // Prompt 2: "always allow" saves the suggested rule; then the editor cancels the running command.
      let cancelSent: Promise<void> | undefined;
      answer = () => {
        // Cancelled once the command is running (it writes its marker first).
        cancelSent = waitFor(() => existsSync(join(project, "started.txt"))).then(() =>
          agent.notify(acp.methods.agent.session.cancel, { sessionId: created.sessionId }),
        );
        return { outcome: { outcome: "selected", optionId: "allow_always" } };
      };
      const second = await agent.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: "text", text: "Wait a while" }],
      });
      await cancelSent;
      expect(second.stopReason).toBe("cancelled");
      expect(permissionRequests).toHaveLength(2);
      const local = JSON.parse(readFileSync(join(project, ".warden", "settings.local.json"), "utf8"));
      expect(JSON.stringify(local.permissions.allow)).toContain("Bash(touch:*)");
      const last = updates.filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
      expect(last).toMatchObject({ toolCallId: "bash2", status: "failed" });
    });
    child.stdin?.end();
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code, stderr).toBe(0);
  });

  it("refuses a prompt on the command line and shows its help", async () => {
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, "acp", ...args], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
        });
        child.stderr.on("data", (c: Buffer) => {
          err += c.toString();
        });
        child.on("close", (code) => resolve({ code, out, err }));
      });
    const prompt = await run("do something");
    expect(prompt.code).toBe(2);
    expect(prompt.err).toMatch(/takes no prompt/);
    const help = await run("--help");
    expect(help.code).toBe(0);
    expect(help.out).toContain("Agent Client Protocol");
  });
});
