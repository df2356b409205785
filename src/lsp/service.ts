// A session's handle on its language servers, cheap to create: it knows which servers may be
// started (servers.ts) and loads the client code (vscode-jsonrpc, the protocol, manager.ts) only
// when the LSP tool is first used. The session closes it at its end; the servers' process groups
// are also guarded by the process-lifetime watcher, so none outlives Warden even on SIGKILL.
import type { LspManager } from "./manager.js";
import type { LspServerSpec, UnavailableLspServer } from "./servers.js";

export class LspService {
  private loading: Promise<LspManager> | undefined;
  private loaded: LspManager | undefined;
  private readonly failed = new Set<string>();
  private closed = false;

  constructor(
    readonly servers: readonly LspServerSpec[],
    readonly cwd: string,
    /** Servers set up that cannot run here: a call for their files is told why, not only "no server". */
    readonly unavailable: readonly UnavailableLspServer[] = [],
  ) {}

  /** Some server may still be connected: none configured, or all failed to start, says no. */
  hasUsableServer(): boolean {
    return !this.closed && this.servers.some((server) => !this.failed.has(server.name));
  }

  /** The manager, loading the LSP code on the first call. */
  manager(): Promise<LspManager> {
    if (this.closed) return Promise.reject(new Error("the session's language servers are shut down"));
    this.loading ??= import("./manager.js").then(({ LspManager }) => {
      this.loaded = new LspManager(this.servers, this.cwd, (name) => this.failed.add(name));
      return this.loaded;
    });
    return this.loading;
  }

  /** The manager when the LSP code was loaded already (nothing is loaded or started here). */
  loadedManager(): LspManager | undefined {
    return this.closed ? undefined : this.loaded;
  }

  async close(): Promise<void> {
    this.closed = true;
    const manager = this.loaded ?? (await this.loading?.catch(() => undefined));
    await manager?.close();
  }
}
