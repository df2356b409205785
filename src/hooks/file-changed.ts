// FileChanged (Claude Code's hooks reference): a watched file was added, changed or removed on
// disk. What is watched: the files the FileChanged matchers name (`.envrc|.env`, `*.json`), in
// the shell's current folder, and the watchPaths that SessionStart, CwdChanged and FileChanged
// hooks return (absolute paths; a folder means the files in it). The watcher exists only when
// FileChanged hooks do, watches folders (an editor's save by rename is still one file's change),
// waits for a file's writes to settle, and stops with the session.
import { type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import picomatch from "picomatch";
import { fileMatcherEntries, isGlob } from "./file-matcher.js";

/** Several writes of one save arrive as several events: a file is looked at once they settle. */
const SETTLE_MS = 100;

export type FileChange = "change" | "add" | "unlink";

/** What the watcher needs of the hook runner (HookRunner fits). */
export interface FileChangedHooks {
  fileChanged(
    filePath: string,
    change: FileChange,
    name: string,
  ): Promise<{ env?: Record<string, string>; errors: string[] }>;
  onWatchPaths(listener: (paths: string[] | undefined, cwd?: string) => void): void;
}

export interface FileChangedWatcherOptions {
  /** The FileChanged hooks' matchers: the files they name are watched. */
  matchers: ReadonlyArray<string | undefined>;
  cwd: string;
  /** Variables the hooks wrote to CLAUDE_ENV_FILE: the session's later Bash commands get them. */
  onEnv: (env: Record<string, string>) => void;
  onWarning: (message: string) => void;
}

/** One folder's interests: exact names, and globs for the files whose names match. */
interface FolderInterest {
  names: Set<string>;
  globs: Array<(name: string) => boolean>;
  /** A watched folder itself: every file in it. */
  all: boolean;
}

/** A file as last seen: absent, or its identity and time of change. */
type Seen = { exists: false } | { exists: true; stamp: string };

function look(path: string): Seen {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return { exists: false };
    return { exists: true, stamp: `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` };
  } catch {
    return { exists: false };
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class FileChangedWatcher {
  private cwd: string;
  private dynamic: string[] = [];
  private watchers: FSWatcher[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly seen = new Map<string, Seen>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly hooks: FileChangedHooks,
    private readonly options: FileChangedWatcherOptions,
  ) {
    this.cwd = options.cwd;
    hooks.onWatchPaths((paths, cwd) => {
      if (paths === undefined && cwd === undefined) return;
      if (paths !== undefined) this.dynamic = paths.map((p) => (isAbsolute(p) ? p : resolve(this.cwd, p)));
      if (cwd !== undefined) this.cwd = cwd;
      this.restart();
    });
    this.restart();
  }

  /** The files and folders watched now (absolute), for tests and `/hooks`-style listings. */
  watched(): string[] {
    return [...this.interests().entries()].flatMap(([folder, interest]) => [
      ...(interest.all ? [folder] : []),
      ...[...interest.names].map((name) => join(folder, name)),
    ]);
  }

  /** Every hook started for a change so far has finished. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  stop(): void {
    this.stopped = true;
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private interests(): Map<string, FolderInterest> {
    const byFolder = new Map<string, FolderInterest>();
    const of = (folder: string): FolderInterest => {
      let interest = byFolder.get(folder);
      if (!interest) {
        interest = { names: new Set(), globs: [], all: false };
        byFolder.set(folder, interest);
      }
      return interest;
    };
    for (const entry of this.options.matchers.flatMap(fileMatcherEntries)) {
      const path = isAbsolute(entry) ? entry : resolve(this.cwd, entry);
      if (isGlob(entry)) of(dirname(path)).globs.push(picomatch(basename(path), { dot: true }));
      else of(dirname(path)).names.add(basename(path));
    }
    for (const path of this.dynamic) {
      if (isFolder(path)) of(path).all = true;
      else of(dirname(path)).names.add(basename(path));
    }
    return byFolder;
  }

  private restart(): void {
    if (this.stopped) return;
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
    for (const [folder, interest] of this.interests()) {
      const wanted = (name: string) => interest.all || interest.names.has(name) || interest.globs.some((g) => g(name));
      // What is there now is the baseline a later change is told against.
      for (const name of interest.names) this.remember(join(folder, name));
      if (interest.all || interest.globs.length > 0) {
        try {
          for (const name of readdirSync(folder)) if (wanted(name)) this.remember(join(folder, name));
        } catch {
          // A folder that is not there (yet): nothing to remember.
        }
      }
      try {
        const watcher = watch(folder, { persistent: false }, (_kind, name) => {
          if (name !== null && wanted(String(name))) this.settle(join(folder, String(name)));
        });
        watcher.on("error", () => watcher.close());
        this.watchers.push(watcher);
      } catch {
        // A folder that does not exist or cannot be watched: its files' changes go unheard.
      }
    }
  }

  private remember(path: string): void {
    if (!this.seen.has(path)) this.seen.set(path, look(path));
  }

  private settle(path: string): void {
    clearTimeout(this.timers.get(path));
    this.timers.set(
      path,
      setTimeout(() => {
        this.timers.delete(path);
        this.report(path);
      }, SETTLE_MS),
    );
  }

  private report(path: string): void {
    if (this.stopped) return;
    const before = this.seen.get(path) ?? { exists: false };
    const now = look(path);
    this.seen.set(path, now);
    let change: FileChange | undefined;
    if (!before.exists && now.exists) change = "add";
    else if (before.exists && !now.exists) change = "unlink";
    else if (before.exists && now.exists && before.stamp !== now.stamp) change = "change";
    if (!change) return;
    const done = this.hooks.fileChanged(path, change, basename(path)).then(({ env, errors }) => {
      for (const error of errors) this.options.onWarning(error);
      if (env) this.options.onEnv(env);
    });
    const tracked = done.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }
}

/** Starts watching for the session's FileChanged hooks; returns the watcher (stop it at the end). */
export function watchChangedFiles(hooks: FileChangedHooks, options: FileChangedWatcherOptions): FileChangedWatcher {
  return new FileChangedWatcher(hooks, options);
}
