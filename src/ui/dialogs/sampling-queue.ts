// MCP servers' requests for a completion from the session's model (sampling), waiting for the
// person one at a time. The session's MCP client hands each one here and waits for a yes or no;
// nothing reaches the model before the person says yes. "Yes, always for this server" is
// remembered for the rest of the process (and written to the user's settings by `remember`, so
// later sessions, headless ones included, let the server sample without asking). A request
// withdrawn meanwhile (the tool call was interrupted) leaves the queue refused.
import type { CreateMessageRequestParams } from "@modelcontextprotocol/sdk/types.js";

/** A server's sampling request, with the server's name so the person knows who asks. */
export interface SamplingQuestion {
  server: string;
  params: CreateMessageRequestParams;
}

export type SamplingChoice = "yes" | "always" | "no";

export interface PendingSampling {
  id: number;
  question: SamplingQuestion;
  answer(choice: SamplingChoice): void;
}

export class SamplingQueue {
  private readonly pending: PendingSampling[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly alwaysAllowed = new Set<string>();
  private nextId = 1;

  /** `remember` keeps an "always" beyond this process (the CLI writes `mcpSamplingServers`). */
  constructor(private readonly remember: (server: string) => void = () => undefined) {}

  /** The session's sampling approval (McpClientFeatures.approveSampling). */
  readonly ask = (question: SamplingQuestion, signal: AbortSignal): Promise<boolean> =>
    new Promise<boolean>((resolve) => {
      if (this.alwaysAllowed.has(question.server)) return resolve(true);
      if (signal.aborted) return resolve(false);
      const entry: PendingSampling = {
        id: this.nextId++,
        question,
        answer: (choice) => {
          const index = this.pending.indexOf(entry);
          if (index === -1) return;
          this.pending.splice(index, 1);
          signal.removeEventListener("abort", onAbort);
          if (choice === "always") {
            this.alwaysAllowed.add(question.server);
            this.remember(question.server);
          }
          resolve(choice !== "no");
          // The same server's other requests waiting behind this one are covered by "always" too.
          if (choice === "always") {
            for (const other of this.pending.filter((p) => p.question.server === question.server)) other.answer("yes");
          }
          this.emit();
        },
      };
      const onAbort = () => entry.answer("no");
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.push(entry);
      this.emit();
    });

  /** The request to show now. */
  get current(): PendingSampling | undefined {
    return this.pending[0];
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
