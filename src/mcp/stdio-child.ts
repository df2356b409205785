// A stdio MCP server's process, started on its own before anything of the MCP SDK is loaded, and
// the SDK transport that later speaks to it. Starting the process is one spawn; loading the SDK
// and the initialize handshake cost the session ~70 ms of its own start-up. Split this way, a
// session starts the servers it waits for first thing and loads the SDK while they boot.
// Newline-delimited JSON-RPC over the child's stdin/stdout, as the MCP stdio transport is.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { spawnGuarded } from "../process/guarded-spawn.js";
import { signalProcessGroup } from "../process/process-group.js";
import { trackChild } from "./child-registry.js";

/** The last part of a stdio server's stderr, kept to explain a crash or a failed start. */
export class StderrTail {
  private text = "";
  constructor(private readonly maxChars = 4000) {}
  append(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.maxChars);
  }
  toString(): string {
    return this.text.trim();
  }
}

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** How long a closed stdin may take to end the server before it is killed. */
const CLOSE_GRACE_MS = 2_000;

export class StdioServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr = new StderrTail();
  /** Resolves once the process exists; rejects with the spawn error (e.g. ENOENT). */
  readonly spawned: Promise<void>;
  /** Stdout that arrived before a transport took the process over. */
  private early: Buffer[] = [];
  private readonly onEarly = (chunk: Buffer) => this.early.push(chunk);
  private closedValue = false;

  constructor(launch: StdioLaunch) {
    // On the orphan guard's list before it runs: a Warden killed while the server starts leaves
    // nothing behind. The leader of a group of its own, so that stopping it stops what it started
    // too (`sh -c`, npx, uvx: the server is their child), which would otherwise live on holding
    // its stdout open, and Warden with it.
    this.child = spawnGuarded(launch.command, launch.args, {
      env: launch.env,
      cwd: launch.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    }) as ChildProcessWithoutNullStreams;
    if (this.child.pid !== undefined) trackChild(this.child.pid);
    // Read stderr from the start so a server that fails at once can be explained, and so a
    // chatty server never blocks on a full pipe.
    this.child.stderr.on("data", (chunk: Buffer) => this.stderr.append(chunk));
    this.child.stdout.on("data", this.onEarly);
    this.child.once("close", () => {
      this.closedValue = true;
    });
    this.spawned = new Promise<void>((resolve, reject) => {
      this.child.once("spawn", () => resolve());
      this.child.once("error", reject);
    });
    // Asked for by start(); until then a failed spawn must not be an unhandled rejection.
    this.spawned.catch(() => undefined);
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  get closed(): boolean {
    return this.closedValue;
  }

  /** Hands stdout over: what arrived so far, then every later chunk, to `onData`. */
  takeStdout(onData: (chunk: Buffer) => void): void {
    this.child.stdout.off("data", this.onEarly);
    const early = this.early;
    this.early = [];
    for (const chunk of early) onData(chunk);
    this.child.stdout.on("data", onData);
  }

  /** Ends stdin, then kills the server if it has not exited within the grace. */
  async stop(): Promise<void> {
    if (this.closedValue) return;
    const closed = new Promise<void>((resolve) => this.child.once("close", () => resolve()));
    try {
      this.child.stdin.end();
    } catch {
      // A broken pipe: the process is going anyway.
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    if (!this.closedValue) this.kill("SIGKILL");
  }

  /** Signals the server's whole process group (it leads one: see the constructor). */
  kill(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined || !signalProcessGroup(this.child.pid, signal)) this.child.kill(signal);
  }
}

/** What the transport needs of the SDK's stdio framing (loaded with the SDK, not before). */
export interface StdioFraming {
  ReadBuffer: new () => { append(chunk: Buffer): void; readMessage(): JSONRPCMessage | null; clear(): void };
  serializeMessage(message: JSONRPCMessage): string;
}

/** The SDK's Transport over a server process started earlier. */
export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer: InstanceType<StdioFraming["ReadBuffer"]>;
  private started = false;
  private closeTold = false;

  constructor(
    private readonly server: StdioServerProcess,
    private readonly framing: StdioFraming,
  ) {
    this.buffer = new framing.ReadBuffer();
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("ChildStdioTransport already started");
    this.started = true;
    await this.server.spawned;
    const child = this.server.child;
    child.once("close", () => this.tellClosed());
    child.stdin.on("error", (error) => this.onerror?.(error));
    child.stdout.on("error", (error) => this.onerror?.(error));
    this.server.takeStdout((chunk) => this.receive(chunk));
    // A server that exited before the handshake: the client hears of it as a closed connection.
    if (this.server.closed) setImmediate(() => this.tellClosed());
  }

  private tellClosed(): void {
    if (this.closeTold) return;
    this.closeTold = true;
    this.onclose?.();
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // One bad line costs that line only, as with the SDK's own stdio transport.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.server.child.stdin;
      if (this.server.closed || stdin.destroyed) {
        reject(new Error("the MCP server's process has exited"));
        return;
      }
      if (stdin.write(this.framing.serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.buffer.clear();
    await this.server.stop();
    this.tellClosed();
  }
}
