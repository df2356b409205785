// What the model has seen of each file: the basis of read-before-write and of the
// "unchanged since last read" stub. Bounded (LRU by entries and by total content size) so that a
// long session reading many large files does not grow without end.

export interface FileReadRecord {
  /** Content as the model saw it (normalised to LF). */
  content: string;
  /** mtime in ms at the moment of the read. */
  timestamp: number;
  offset?: number;
  limit?: number;
  /** True when only part of the file was shown (offset/limit, or a cut). */
  isPartialView?: boolean;
  /**
   * When the text came from an editor (ACP `fs/read_text_file`): a hash of the whole text the view
   * was taken from. An editor's unsaved buffer has no mtime, so this version stamp is what tells
   * a later edit whether the file changed since (tools/file-shared/editor-view.ts).
   */
  sourceHash?: string;
  /**
   * The Read result that showed this text is no longer whole in the conversation (microcompact
   * replaced it by a stub): reading the file again returns its text, not "unchanged since last read".
   */
  outOfView?: boolean;
}

export class ReadFileState {
  private readonly map = new Map<string, FileReadRecord>();
  private totalChars = 0;

  constructor(
    private readonly maxEntries = 100,
    private readonly maxTotalChars = 25 * 1024 * 1024,
  ) {}

  get(path: string): FileReadRecord | undefined {
    const record = this.map.get(path);
    if (record) {
      this.map.delete(path);
      this.map.set(path, record);
    }
    return record;
  }

  /** The record without marking it recently used (a scan must not reorder what gets evicted). */
  peek(path: string): FileReadRecord | undefined {
    return this.map.get(path);
  }

  has(path: string): boolean {
    return this.map.has(path);
  }

  set(path: string, record: FileReadRecord): void {
    this.delete(path);
    this.map.set(path, record);
    this.totalChars += record.content.length;
    while (this.map.size > this.maxEntries || (this.totalChars > this.maxTotalChars && this.map.size > 1)) {
      const oldest = this.map.keys().next().value as string;
      this.delete(oldest);
    }
  }

  /** Marks the record's text as gone from the conversation (its order in the LRU is kept). */
  markOutOfView(path: string): void {
    const record = this.map.get(path);
    if (record) this.map.set(path, { ...record, outOfView: true });
  }

  delete(path: string): void {
    const old = this.map.get(path);
    if (old) {
      this.totalChars -= old.content.length;
      this.map.delete(path);
    }
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  /** A copy for a subagent: it starts knowing what its parent knew, then diverges. */
  clone(): ReadFileState {
    const copy = new ReadFileState(this.maxEntries, this.maxTotalChars);
    for (const [k, v] of this.map) copy.set(k, { ...v });
    return copy;
  }

  get size(): number {
    return this.map.size;
  }
}
