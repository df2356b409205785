// The mailboxes between a session's layers. A tool, a hook or a front end has something for
// another part of the session (a reminder for the model's next request, a message the user sent
// while a prompt ran, a request to start a turn): it sends it on a channel, and the one consumer
// named in ./session-channels.ts takes it. Sending never edits AppState, which stays the session's
// state; a subscriber hears each send (the idle wake listens to the channels that can call for a turn).

/** Listeners of a channel or a flag: told after each change, in the order they subscribed. */
class Listeners {
  private readonly set = new Set<() => void>();

  add(listener: () => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  tell(): void {
    for (const listener of [...this.set]) listener();
  }
}

/** A queue of items from any number of producers to one consumer, who drains it. */
export class Channel<T> {
  private items: T[] = [];
  private readonly listeners = new Listeners();

  send(...items: T[]): void {
    if (items.length === 0) return;
    this.items.push(...items);
    this.listeners.tell();
  }

  /** Takes every item out, oldest first; an item sent while the consumer works waits for the next drain. */
  drain(): T[] {
    const taken = this.items;
    this.items = [];
    return taken;
  }

  /** What waits, without taking it (to show it, or to see whether anything waits). */
  peek(): readonly T[] {
    return this.items;
  }

  get size(): number {
    return this.items.length;
  }

  /** Takes out the items `match` accepts (an item withdrawn before its consumer saw it); how many were taken. */
  withdraw(match: (item: T) => boolean): number {
    const before = this.items.length;
    this.items = this.items.filter((item) => !match(item));
    return before - this.items.length;
  }

  /** `listener` is called after each send; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    return this.listeners.add(listener);
  }
}

/** A request that is either standing or not: raised by producers, cleared by its consumer. */
export class Flag {
  private up = false;
  private readonly listeners = new Listeners();

  raise(): void {
    this.up = true;
    this.listeners.tell();
  }

  clear(): void {
    this.up = false;
  }

  get raised(): boolean {
    return this.up;
  }

  /** `listener` is called after each raise; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    return this.listeners.add(listener);
  }
}

/** One value waiting for its answer: the last one put replaces the one before. */
export class Slot<T> {
  private value: T | undefined;

  put(value: T): void {
    this.value = value;
  }

  peek(): T | undefined {
    return this.value;
  }

  /** Takes the value out when `match` accepts it; undefined (and the value stays) otherwise. */
  takeIf(match: (value: T) => boolean): T | undefined {
    const value = this.value;
    if (value === undefined || !match(value)) return undefined;
    this.value = undefined;
    return value;
  }

  clear(): void {
    this.value = undefined;
  }
}
