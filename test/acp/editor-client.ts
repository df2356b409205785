// A test editor on the official ACP SDK's client side, driving the built `warden acp`: it records
// session updates, answers permission requests, serves files from its own buffers (unsaved text
// that differs from the disk) and saves what the agent writes, and runs terminals by really
// spawning the command, as an editor does.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable, Writable } from "node:stream";
// The unstable entry, a superset of the stable one: an editor that may also fork sessions.
import * as acp from "@agentclientprotocol/sdk/unstable";

export const ROOT = join(import.meta.dirname, "..", "..");
export const CLI = join(ROOT, "bin", "warden.js");

/** initialize from an editor that offers neither its file system nor terminals. */
export const INIT_WITHOUT_EDITOR_FS: acp.InitializeRequest = {
  protocolVersion: acp.PROTOCOL_VERSION,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
};

/** A folder of its own for one test: a home for Warden and a project (a git repository) in it. */
export function editorProject(prefix: string): { base: string; home: string; project: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(base, "home");
  const project = join(base, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  return { base, home, project };
}

/** initialize, then session/new in `cwd`: the new session's id. */
export async function openSession(agent: acp.ClientContext, cwd: string): Promise<string> {
  await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  return sessionId;
}

export interface TestTerminal {
  id: string;
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  output: string;
  child: ChildProcess;
  exit: Promise<acp.TerminalExitStatus>;
  killed: boolean;
  released: boolean;
}

export interface TestEditor {
  updates: acp.SessionUpdate[];
  permissionRequests: acp.RequestPermissionRequest[];
  /** Open buffers: path -> text (what the person sees, saved or not). */
  buffers: Map<string, string>;
  reads: string[];
  writes: Array<{ path: string; content: string }>;
  terminals: TestTerminal[];
  answer: (
    request: acp.RequestPermissionRequest,
  ) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  stderr: () => string;
  /** Runs `work` with the agent side, then closes stdin and resolves with Warden's exit code. */
  run(work: (agent: acp.ClientContext) => Promise<void>): Promise<number | null>;
}

export function startEditor(
  args: string[],
  options: { cwd: string; home: string; env?: Record<string, string> },
): TestEditor {
  const child = spawn(process.execPath, [CLI, "acp", ...args], {
    cwd: options.cwd,
    env: {
      ...process.env,
      HOME: options.home,
      WARDEN_HOME: join(options.home, ".warden"),
      WARDEN_MANAGED_SETTINGS: join(options.home, "none"),
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const editor: TestEditor = {
    updates: [],
    permissionRequests: [],
    buffers: new Map(),
    reads: [],
    writes: [],
    terminals: [],
    answer: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }),
    stderr: () => stderr,
    async run(work) {
      const stream = acp.ndJsonStream(
        Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>,
      );
      try {
        await client.connectWith(stream, work);
      } finally {
        for (const terminal of editor.terminals) if (terminal.child.exitCode === null) terminal.child.kill("SIGKILL");
        child.stdin?.end();
      }
      if (child.exitCode !== null) return child.exitCode;
      return new Promise((resolve) => child.once("exit", resolve));
    },
  };
  const terminal = (id: string): TestTerminal => {
    const found = editor.terminals.find((t) => t.id === id);
    if (!found) throw acp.RequestError.invalidParams({ terminalId: id }, "no such terminal");
    return found;
  };
  const client = acp
    .client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      editor.updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      editor.permissionRequests.push(params);
      return editor.answer(params);
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      editor.reads.push(params.path);
      return { content: editor.buffers.get(params.path) ?? readFileSync(params.path, "utf8") };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      editor.writes.push({ path: params.path, content: params.content });
      editor.buffers.set(params.path, params.content);
      // The editor saves the buffer it changed.
      mkdirSync(dirname(params.path), { recursive: true });
      writeFileSync(params.path, params.content);
      return {};
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      const env = Object.fromEntries((params.env ?? []).map((pair) => [pair.name, pair.value]));
      const spawned = spawn(params.command, params.args ?? [], {
        cwd: params.cwd ?? undefined,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const record: TestTerminal = {
        id: `term-${editor.terminals.length + 1}`,
        command: params.command,
        args: params.args ?? [],
        cwd: params.cwd ?? undefined,
        env,
        output: "",
        child: spawned,
        killed: false,
        released: false,
        exit: new Promise((resolve) =>
          spawned.once("exit", (exitCode, signal) => resolve({ exitCode, signal: signal ?? null })),
        ),
      };
      const collect = (chunk: Buffer) => {
        record.output += chunk.toString();
      };
      spawned.stdout?.on("data", collect);
      spawned.stderr?.on("data", collect);
      editor.terminals.push(record);
      return { terminalId: record.id };
    })
    .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => {
      const status = await terminal(params.terminalId).exit;
      return { exitCode: status.exitCode, signal: status.signal };
    })
    .onRequest(acp.methods.client.terminal.output, ({ params }) => {
      const found = terminal(params.terminalId);
      const done = found.child.exitCode !== null || found.child.signalCode !== null;
      return {
        output: found.output,
        truncated: false,
        ...(done && { exitStatus: { exitCode: found.child.exitCode, signal: found.child.signalCode } }),
      };
    })
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      const found = terminal(params.terminalId);
      found.killed = true;
      found.child.kill("SIGTERM");
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      const found = terminal(params.terminalId);
      found.released = true;
      if (found.child.exitCode === null) found.child.kill("SIGKILL");
      return {};
    });
  return editor;
}

export async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The `session/update`s of one kind. */
export function updatesOf<K extends acp.SessionUpdate["sessionUpdate"]>(
  updates: readonly acp.SessionUpdate[],
  kind: K,
): Array<Extract<acp.SessionUpdate, { sessionUpdate: K }>> {
  return updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
}
