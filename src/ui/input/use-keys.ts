// Key events for components. One source per stdin reads its 'data' events (raw mode on a real
// terminal) through KeyParser and hands each event to the active handlers. Input typed before the
// UI loaded is primed into the source and replayed when the first handler subscribes.
import { useStdin } from "ink";
import { useEffect, useRef } from "react";
import { type KeyEvent, KeyParser } from "./keys.js";

export type KeyHandler = (event: KeyEvent) => void;

/** How long a lone ESC waits for the rest of a sequence before it counts as the ESC key. */
const ESCAPE_WAIT_MS = 40;

class KeySource {
  private readonly parser = new KeyParser();
  private readonly handlers = new Set<{ current: KeyHandler }>();
  private primed: string | undefined;
  private escapeTimer: NodeJS.Timeout | undefined;
  private listening = false;

  constructor(private readonly stdin: NodeJS.ReadStream) {}

  prime(raw: string): void {
    this.primed = (this.primed ?? "") + raw;
  }

  subscribe(handler: { current: KeyHandler }): () => void {
    this.handlers.add(handler);
    if (!this.listening) {
      this.listening = true;
      if (this.stdin.isTTY) this.stdin.setRawMode?.(true);
      this.stdin.setEncoding?.("utf8");
      this.stdin.on("data", this.onData);
      this.stdin.resume?.();
    }
    if (this.primed !== undefined) {
      const raw = this.primed;
      this.primed = undefined;
      // After the subscriber's first render has settled, as if typed just now.
      setImmediate(() => this.onData(raw));
    }
    return () => {
      this.handlers.delete(handler);
    };
  }

  /** Stops reading (the session is over). */
  close(): void {
    this.stdin.off("data", this.onData);
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    if (this.stdin.isTTY) this.stdin.setRawMode?.(false);
    this.stdin.pause?.();
  }

  private readonly onData = (chunk: string | Buffer) => {
    if (this.escapeTimer) clearTimeout(this.escapeTimer);
    this.escapeTimer = undefined;
    this.dispatch(this.parser.push(typeof chunk === "string" ? chunk : chunk.toString("utf8")));
    if (this.parser.hasPendingEscape) {
      this.escapeTimer = setTimeout(() => this.dispatch(this.parser.flushPendingEscape()), ESCAPE_WAIT_MS);
    }
  };

  private dispatch(events: KeyEvent[]): void {
    for (const event of events) for (const handler of [...this.handlers]) handler.current(event);
  }
}

const sources = new WeakMap<NodeJS.ReadStream, KeySource>();

export function keySourceFor(stdin: NodeJS.ReadStream): KeySource {
  let source = sources.get(stdin);
  if (!source) {
    source = new KeySource(stdin);
    sources.set(stdin, source);
  }
  return source;
}

/** Calls `handler` for every key event while `active`. */
export function useKeys(handler: KeyHandler, active = true): void {
  const { stdin } = useStdin();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!active) return;
    return keySourceFor(stdin).subscribe(ref);
  }, [stdin, active]);
}
