// Fetched pages kept for 15 minutes per URL (the reference's figure), so a second question about
// the same page costs no request. The least recently used pages leave first once the kept text
// passes a cap, so a session that reads many large pages does not grow without bound.
import type { FetchedPage } from "./fetch-page.js";

export const CACHE_TTL_MS = 15 * 60 * 1000;
const MAX_CACHED_CHARS = 50 * 1024 * 1024;

interface Entry {
  page: FetchedPage;
  storedAt: number;
  size: number;
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private size = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get(url: string): FetchedPage | undefined {
    const entry = this.entries.get(url);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= CACHE_TTL_MS) {
      this.delete(url, entry);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(url);
    this.entries.set(url, entry);
    return entry.page;
  }

  set(url: string, page: FetchedPage): void {
    const previous = this.entries.get(url);
    if (previous) this.delete(url, previous);
    const size = page.content.length;
    if (size > MAX_CACHED_CHARS) return;
    this.entries.set(url, { page, storedAt: this.now(), size });
    this.size += size;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= MAX_CACHED_CHARS) break;
      this.delete(oldest, entry);
    }
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }

  private delete(url: string, entry: Entry): void {
    this.entries.delete(url);
    this.size -= entry.size;
  }
}
