// The bridge between the permission engine, which asks (an AskHandler returning a promise), and the
// UI, which shows one question at a time. Asks wait in order; a call whose turn is cancelled (ESC)
// while its question is shown or waiting is answered "deny" at once, so the loop never hangs on a
// question nobody will see.
import type { AskRequest, AskResponse } from "../../permissions/engine/index.js";

export interface PendingAsk {
  id: number;
  request: AskRequest;
  answer(response: AskResponse): void;
}

export class PermissionQueue {
  private readonly pending: PendingAsk[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  /** The engine's ask handler. */
  readonly ask = (request: AskRequest): Promise<AskResponse> =>
    new Promise<AskResponse>((resolve) => {
      const signal = request.context.abortController.signal;
      const entry: PendingAsk = {
        id: this.nextId++,
        request,
        answer: (response) => {
          const index = this.pending.indexOf(entry);
          if (index === -1) return;
          this.pending.splice(index, 1);
          signal.removeEventListener("abort", onAbort);
          resolve(response);
          this.emit();
        },
      };
      const interrupted: AskResponse = {
        behavior: "deny",
        message: "The request was interrupted before the user answered.",
      };
      const onAbort = () => entry.answer(interrupted);
      if (signal.aborted) return resolve(interrupted);
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.push(entry);
      this.emit();
    });

  /** The question to show now. */
  get current(): PendingAsk | undefined {
    return this.pending[0];
  }

  /** The tool calls whose question is shown or waits its turn. */
  get toolUseIds(): string[] {
    return this.pending.map((entry) => entry.request.toolUseId);
  }

  get size(): number {
    return this.pending.length;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
