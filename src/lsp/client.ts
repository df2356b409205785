// One running language server: its process (in a process group of its own, guarded so it dies with
// Warden even on SIGKILL, together with whatever it started: typescript-language-server runs
// tsserver as a child), the JSON-RPC connection (vscode-jsonrpc through
// vscode-languageserver-protocol), the initialize handshake, the documents it has open and the
// diagnostics it last published for each.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import type {
  ClientCapabilities,
  Diagnostic,
  ProtocolConnection,
  PublishDiagnosticsParams,
  ServerCapabilities,
} from "vscode-languageserver-protocol/node";
// CommonJS package: its named exports are reached through the default import.
import lsp from "vscode-languageserver-protocol/node";
import { spawnGuarded } from "../process/guarded-spawn.js";
import { releaseProcessGroup } from "../process/orphan-guard.js";
import { type LspServerSpec, languageIdFor } from "./servers.js";

const INITIALIZE_TIMEOUT_MS = 60_000;
const SHUTDOWN_GRACE_MS = 1_500;
const STDERR_TAIL_CHARS = 2_000;

const CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    symbol: { dynamicRegistration: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true, willSave: false, willSaveWaitUntil: false },
    hover: { dynamicRegistration: false, contentFormat: ["markdown", "plaintext"] },
    definition: { dynamicRegistration: false, linkSupport: true },
    implementation: { dynamicRegistration: false, linkSupport: true },
    references: { dynamicRegistration: false },
    documentSymbol: { dynamicRegistration: false, hierarchicalDocumentSymbolSupport: true },
    callHierarchy: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: false },
  },
  window: { workDoneProgress: false },
};

interface OpenDocument {
  version: number;
  text: string;
}

interface PublishedDiagnostics {
  /** How many times the server has published for this file (to wait for the next one). */
  count: number;
  diagnostics: Diagnostic[];
}

/** Resolves once no process of the group is left (a SIGKILL takes a moment to land), at most ~2 s. */
async function groupGone(pgid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

export class LspClient {
  readonly spec: LspServerSpec;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly connection: ProtocolConnection;
  private readonly documents = new Map<string, OpenDocument>();
  private readonly diagnostics = new Map<string, PublishedDiagnostics>();
  private readonly waiters = new Set<() => void>();
  private stderrTail = "";
  private exited = false;
  /** How the process ended (`code 3`, `SIGKILL`), once it has. */
  private exitDescription: string | undefined;
  /** Set when stop() had to kill the process: its exit then says nothing about why it failed. */
  private killedByStop = false;
  private readonly exitSeen: Promise<void>;
  private stopping: Promise<void> | undefined;
  capabilities: ServerCapabilities = {};

  private constructor(spec: LspServerSpec, cwd: string) {
    this.spec = spec;
    // Its group is on the orphan guard's list before the server runs.
    this.child = spawnGuarded(spec.command, spec.args, {
      cwd,
      env: { ...process.env, ...spec.env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    }) as ChildProcessWithoutNullStreams;
    const pid = this.child.pid;
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    let markExit!: () => void;
    this.exitSeen = new Promise<void>((resolve) => {
      markExit = resolve;
    });
    this.child.once("exit", (code, signal) => {
      this.exited = true;
      this.exitDescription = signal ?? `code ${code}`;
      markExit();
      if (pid !== undefined) releaseProcessGroup(pid);
      this.wakeWaiters();
    });
    this.connection = lsp.createProtocolConnection(
      new lsp.StreamMessageReader(this.child.stdout),
      new lsp.StreamMessageWriter(this.child.stdin),
    );
    this.connection.onRequest(lsp.ConfigurationRequest.type, (params) =>
      params.items.map((item) => (item.section ? (spec.settings?.[item.section] ?? null) : (spec.settings ?? null))),
    );
    this.connection.onRequest(lsp.RegistrationRequest.type, () => undefined);
    this.connection.onRequest(lsp.UnregistrationRequest.type, () => undefined);
    this.connection.onRequest(lsp.WorkDoneProgressCreateRequest.type, () => undefined);
    this.connection.onRequest(lsp.WorkspaceFoldersRequest.type, () => [
      { uri: fileUri(cwd), name: cwd.split("/").pop() || cwd },
    ]);
    this.connection.onRequest(lsp.ShowMessageRequest.type, () => null);
    this.connection.onNotification(lsp.PublishDiagnosticsNotification.type, (params) => this.onDiagnostics(params));
    // A pipe closed under us is reported through the process's exit; nothing to do here.
    this.connection.onError(() => undefined);
    this.connection.listen();
  }

  /** Starts the server and completes the initialize handshake; rejects with the reason it could not. */
  /** `signal` ends a start in progress at once (the session closing), rather than at the startup timeout. */
  static async start(spec: LspServerSpec, cwd: string, signal?: AbortSignal): Promise<LspClient> {
    const client = new LspClient(spec, cwd);
    const spawned = new Promise<void>((resolve, reject) => {
      client.child.once("spawn", () => resolve());
      client.child.once("error", reject);
    });
    try {
      await spawned;
      await client.initialize(cwd, signal);
      return client;
    } catch (error) {
      await client.stop();
      // Ended now, by itself or by the kill in stop(): how it ended is known, not raced against.
      // (A command that never started has no exit to wait for.)
      if (client.child.pid !== undefined) await client.exitSeen;
      const why = client.whyItFailed(error);
      const stderr = client.stderrTail.trim();
      throw new Error(
        `language server "${spec.name}" (${spec.command}) could not start: ${why}${stderr ? `\nits stderr ended with: ${stderr.slice(-600)}` : ""}`,
      );
    }
  }

  /**
   * A server that dies at start makes the handshake's first write fail (EPIPE) before its exit is
   * seen: how it exited by itself says more than the broken pipe. Called once the process is gone.
   */
  private whyItFailed(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    if (!/EPIPE|ECONNRESET|ERR_STREAM_DESTROYED|write after end/i.test(message)) return message;
    return this.exitDescription && !this.killedByStop ? `it exited (${this.exitDescription})` : message;
  }

  private async initialize(cwd: string, signal?: AbortSignal): Promise<void> {
    const exited = new Promise<never>((_, reject) => {
      this.child.once("exit", (code, signal) => reject(new Error(`it exited (${signal ?? `code ${code}`})`)));
    });
    exited.catch(() => undefined);
    const { spokeOtherwise, stopListening } = this.notSpeakingLsp();
    const stopped = new Promise<never>((_, reject) => {
      const stop = () => reject(new Error("the session ended while it was starting"));
      if (signal?.aborted) stop();
      signal?.addEventListener("abort", stop, { once: true });
    });
    stopped.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const limit = this.spec.startupTimeout ?? INITIALIZE_TIMEOUT_MS;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to initialize within ${limit} ms`)), limit);
    });
    try {
      const result = await Promise.race([
        this.connection.sendRequest(lsp.InitializeRequest.type, {
          processId: process.pid,
          rootUri: fileUri(cwd),
          workspaceFolders: [{ uri: fileUri(cwd), name: cwd.split("/").pop() || cwd }],
          capabilities: CAPABILITIES,
          initializationOptions: this.spec.initializationOptions ?? null,
          clientInfo: { name: "warden" },
        }),
        exited,
        timedOut,
        spokeOtherwise,
        stopped,
      ]);
      this.capabilities = result.capabilities;
    } finally {
      clearTimeout(timer);
      stopListening();
    }
    await this.connection.sendNotification(lsp.InitializedNotification.type, {});
    if (this.spec.settings) {
      await this.connection.sendNotification(lsp.DidChangeConfigurationNotification.type, {
        settings: this.spec.settings,
      });
    }
  }

  /**
   * Rejects as soon as the server's first output shows it is not speaking LSP (every message starts
   * with a Content-Length header): a usage text, a banner, a command missing `--stdio`. Otherwise
   * the reader waits for a header that never comes and the call hangs until the startup timeout.
   */
  private notSpeakingLsp(): { spokeOtherwise: Promise<never>; stopListening: () => void } {
    let head = "";
    let onData: (chunk: Buffer) => void = () => undefined;
    const spokeOtherwise = new Promise<never>((_, reject) => {
      onData = (chunk) => {
        head += chunk.toString("utf8");
        const header = "content-";
        const start = head.slice(0, header.length).toLowerCase();
        if (header.startsWith(start) && head.length < header.length) return;
        if (start === header) return this.child.stdout.off("data", onData);
        this.child.stdout.off("data", onData);
        const shown = head.trim().slice(0, 200);
        reject(
          new Error(
            `its output is not the language server protocol (it began with ${JSON.stringify(shown)}); is ${this.spec.command} a language server, and does it need an argument such as --stdio?`,
          ),
        );
      };
    });
    spokeOtherwise.catch(() => undefined);
    this.child.stdout.on("data", onData);
    return { spokeOtherwise, stopListening: () => this.child.stdout.off("data", onData) };
  }

  get alive(): boolean {
    return !this.exited && !this.stopping;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last of the server's stderr, to explain a failure. */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  isOpen(path: string): boolean {
    return this.documents.has(fileUri(path));
  }

  /**
   * Makes the server see the file as it is on disk (or as `text` says): opened the first time,
   * changed (whole text) when it differs from what the server has. Returns whether it was sent.
   */
  async sync(path: string, text?: string): Promise<boolean> {
    const content = text ?? (await readFile(path, "utf8"));
    const uri = fileUri(path);
    const open = this.documents.get(uri);
    if (!open) {
      this.documents.set(uri, { version: 1, text: content });
      await this.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: languageIdFor(this.spec, path), version: 1, text: content },
      });
      return true;
    }
    if (open.text === content) return false;
    open.version += 1;
    open.text = content;
    await this.connection.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: open.version },
      contentChanges: [{ text: content }],
    });
    return true;
  }

  /**
   * Gives the server the file's current text as a freshly opened document (close, then open), and
   * returns the diagnostics count to wait beyond. A reopened document gets its diagnostics published
   * even when they did not change (a plain change would be answered by silence when a file stays
   * clean, leaving a waiter to time out). The close's own publish, if the server sends one, is in
   * before the count is taken: a request after the close is answered only after it.
   */
  async reopen(path: string): Promise<number | undefined> {
    const content = await readFile(path, "utf8");
    const uri = fileUri(path);
    const open = this.documents.get(uri);
    if (open && open.text === content) return undefined;
    if (open) {
      this.documents.delete(uri);
      await this.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      // No server knows this method: the error answer only marks where the close was handled.
      await this.connection.sendRequest("$/warden/ping").catch(() => undefined);
    }
    const count = this.diagnosticsCount(path);
    await this.sync(path, content);
    return count;
  }

  /** The text the server has for a file it has open. */
  openText(path: string): string | undefined {
    return this.documents.get(fileUri(path))?.text;
  }

  async request<P, R>(
    type: lsp.ProtocolRequestType<P, R, unknown, unknown, unknown>,
    params: P,
    signal?: AbortSignal,
  ): Promise<R> {
    if (!this.alive) throw new Error(`language server "${this.spec.name}" is not running`);
    const source = new lsp.CancellationTokenSource();
    const cancel = () => source.cancel();
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return await this.connection.sendRequest<R>(type.method, params, source.token);
    } finally {
      signal?.removeEventListener("abort", cancel);
      source.dispose();
    }
  }

  /** How many times diagnostics were published for the file so far (pass it to waitForDiagnostics). */
  diagnosticsCount(path: string): number {
    return this.diagnostics.get(fileUri(path))?.count ?? 0;
  }

  currentDiagnostics(path: string): Diagnostic[] {
    return this.diagnostics.get(fileUri(path))?.diagnostics ?? [];
  }

  /**
   * Waits until the server has published diagnostics for the file after `afterCount` and then
   * stayed quiet for `quietMs` (servers publish in stages: syntax, then types), or `timeoutMs`
   * passed. Resolves with the file's diagnostics then, undefined when nothing new came.
   */
  async waitForDiagnostics(
    path: string,
    afterCount: number,
    timeoutMs: number,
    quietMs: number,
  ): Promise<Diagnostic[] | undefined> {
    const uri = fileUri(path);
    const deadline = Date.now() + timeoutMs;
    let seen = afterCount;
    let quietUntil: number | undefined;
    for (;;) {
      const now = Date.now();
      const published = this.diagnostics.get(uri);
      if (published && published.count > seen) {
        seen = published.count;
        quietUntil = now + quietMs;
      }
      const until = Math.min(deadline, quietUntil ?? deadline);
      if (now >= until || this.exited) break;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, until - now);
        this.waiters.add(wake);
      });
    }
    return seen > afterCount ? (this.diagnostics.get(uri)?.diagnostics ?? []) : undefined;
  }

  private onDiagnostics(params: PublishDiagnosticsParams): void {
    const previous = this.diagnostics.get(params.uri);
    this.diagnostics.set(params.uri, { count: (previous?.count ?? 0) + 1, diagnostics: params.diagnostics });
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Asks the server to shut down, then kills its process group whatever it answered. */
  stop(): Promise<void> {
    this.stopping ??= this.stopOnce();
    return this.stopping;
  }

  private async stopOnce(): Promise<void> {
    const pid = this.child.pid;
    if (!this.exited && pid !== undefined) {
      const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
      try {
        await Promise.race([
          this.connection
            .sendRequest(lsp.ShutdownRequest.type)
            .then(() => this.connection.sendNotification(lsp.ExitNotification.type)),
          grace,
        ]);
        await Promise.race([exited, grace]);
      } catch {
        // A server that cannot take the request is killed below.
      } finally {
        clearTimeout(timer);
      }
      // The whole group: the server's own children (tsserver) go with it.
      if (!this.exited) this.killedByStop = true;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Gone already.
      }
      await groupGone(pid);
      releaseProcessGroup(pid);
    }
    this.connection.dispose();
    this.wakeWaiters();
  }
}
