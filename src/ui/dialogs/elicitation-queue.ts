// Questions MCP servers ask the person (elicitation), waiting to be shown one at a time. The
// session's MCP client hands each one here and waits; only the dialog answers, when the person
// chooses Accept, Decline or Cancel. A question whose request is withdrawn (the tool call was
// interrupted, the server gave up) leaves the queue, answered "cancel", which nobody will read.
import type { ElicitRequestParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/** A server's question, with the server's name so the person knows who asks. */
export interface ElicitationQuestion {
  server: string;
  params: ElicitRequestParams;
}

export interface PendingElicitation {
  id: number;
  question: ElicitationQuestion;
  answer(result: ElicitResult): void;
}

export class ElicitationQueue {
  private readonly pending: PendingElicitation[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  /** The session's elicitation handler (McpClientFeatures.onElicitation). */
  readonly ask = (question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitResult> =>
    new Promise<ElicitResult>((resolve) => {
      const entry: PendingElicitation = {
        id: this.nextId++,
        question,
        answer: (result) => {
          const index = this.pending.indexOf(entry);
          if (index === -1) return;
          this.pending.splice(index, 1);
          signal.removeEventListener("abort", onAbort);
          resolve(result);
          this.emit();
        },
      };
      const onAbort = () => entry.answer({ action: "cancel" });
      if (signal.aborted) return resolve({ action: "cancel" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.push(entry);
      this.emit();
    });

  /** The question to show now. */
  get current(): PendingElicitation | undefined {
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
