// A session's running language servers: each started on the first file of its language, once
// (concurrent callers share the start), and stopped together when the session ends. A server that
// could not start is not tried again in the session: its error is kept and repeated.
import { LspClient as Client, type LspClient } from "./client.js";
import { type LspServerSpec, serverForFile } from "./servers.js";

export class LspManager {
  private readonly starting = new Map<string, Promise<LspClient>>();
  private readonly running = new Map<string, LspClient>();
  private closed = false;
  /** Aborted by close(): a server still starting is stopped then, not waited for until its startup timeout. */
  private readonly closing = new AbortController();

  constructor(
    private readonly servers: readonly LspServerSpec[],
    private readonly cwd: string,
    private readonly onFailed: (name: string) => void,
  ) {}

  /** The server for this file, started if need be; rejects when none handles the file or it cannot start. */
  clientFor(path: string): Promise<LspClient> {
    const spec = serverForFile(this.servers, path);
    if (!spec) {
      const known = this.servers.flatMap((server) => server.extensions).join(", ");
      return Promise.reject(
        new Error(`No language server handles ${path} (servers here handle: ${known || "nothing"})`),
      );
    }
    if (this.closed) return Promise.reject(new Error("the session's language servers are shut down"));
    const live = this.running.get(spec.name);
    if (live?.alive) return Promise.resolve(live);
    if (live) {
      // It died since: start it again once.
      this.running.delete(spec.name);
      this.starting.delete(spec.name);
    }
    let start = this.starting.get(spec.name);
    if (!start) {
      start = Client.start(spec, this.cwd, this.closing.signal).then(
        (client) => {
          if (this.closed) {
            void client.stop();
            throw new Error("the session's language servers are shut down");
          }
          this.running.set(spec.name, client);
          return client;
        },
        (error: unknown) => {
          this.onFailed(spec.name);
          throw error;
        },
      );
      this.starting.set(spec.name, start);
    }
    return start;
  }

  /** The running server for this file, without starting one. */
  runningClientFor(path: string): LspClient | undefined {
    const spec = serverForFile(this.servers, path);
    const client = spec ? this.running.get(spec.name) : undefined;
    return client?.alive ? client : undefined;
  }

  /** Servers running now (for tests and status). */
  runningClients(): LspClient[] {
    return [...this.running.values()].filter((client) => client.alive);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    const pending = [...this.starting.values()].map((start) =>
      start.then(
        (client) => client.stop(),
        () => undefined,
      ),
    );
    await Promise.all([...[...this.running.values()].map((client) => client.stop()), ...pending]);
    this.running.clear();
  }
}
