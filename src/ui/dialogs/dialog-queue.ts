// Requests from outside the conversation (an MCP server's question, its wish to sample the model)
// that wait for the person one at a time. Whoever asks gets a promise of the answer; the dialog on
// screen shows `current` and answers it. A request withdrawn meanwhile (the tool call was
// interrupted, the server gave up) leaves the queue with the `withdrawn` answer.

export interface PendingDialog<Question, Answer> {
  id: number;
  question: Question;
  answer(answer: Answer): void;
}

export class DialogQueue<Question, Answer> {
  private readonly pending: PendingDialog<Question, Answer>[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor(private readonly withdrawn: Answer) {}

  /** Waits for the person's answer to `question`, or `withdrawn` once `signal` aborts. */
  protected enqueue(question: Question, signal: AbortSignal): Promise<Answer> {
    return new Promise<Answer>((resolve) => {
      if (signal.aborted) return resolve(this.withdrawn);
      const entry: PendingDialog<Question, Answer> = {
        id: this.nextId++,
        question,
        answer: (answer) => {
          const index = this.pending.indexOf(entry);
          if (index === -1) return;
          this.pending.splice(index, 1);
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
          this.emit();
        },
      };
      const onAbort = () => entry.answer(this.withdrawn);
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.push(entry);
      this.emit();
    });
  }

  /** Every request still waiting, the one on screen first. */
  protected waiting(): readonly PendingDialog<Question, Answer>[] {
    return [...this.pending];
  }

  /** The request to show now. */
  get current(): PendingDialog<Question, Answer> | undefined {
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
