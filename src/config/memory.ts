// Memory files: standing instructions the user keeps in Markdown (AGENTS.md, and Claude Code's
// CLAUDE.md so an existing project works unchanged). Read synchronously at session start: they are
// few and small, and the system prompt cannot be built without them.
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { externalImportsDecision } from "./memory-approval.js";
import { isInside, type MemoryRoot, realPathOf, rootOf } from "./memory-boundary.js";
import { importedPaths, MAX_IMPORT_DEPTH } from "./memory-imports.js";
import { userHome, wardenHome } from "./paths.js";

export type MemoryScope = "user" | "project" | "local";

export interface MemoryFile {
  path: string;
  /** Where `path` really leads (symlinks followed): what the project boundary and deny rules are judged on. */
  realPath: string;
  scope: MemoryScope;
  content: string;
  /** True when the file was longer than MAX_MEMORY_FILE_CHARS and was cut. */
  truncated: boolean;
  /** Set when an `@path` import in that memory file brought this one in (it shares that file's scope). */
  importedFrom?: string;
}

/** A memory file is instructions, not a data dump: past this it is cut so it cannot eat the context. */
export const MAX_MEMORY_FILE_CHARS = 40_000;

/** Names looked for in each project directory, in the order they are included. */
const PROJECT_FILES: ReadonlyArray<[string, MemoryScope]> = [
  ["AGENTS.md", "project"],
  ["CLAUDE.md", "project"],
  [join(".claude", "CLAUDE.md"), "project"],
  ["CLAUDE.local.md", "local"],
];

/**
 * The file's text, or at least its first MAX_MEMORY_FILE_CHARS characters and one more when it is
 * longer (4 bytes each at most in UTF-8): a repository's 50 MB AGENTS.md, or one an import names,
 * is not read whole at every start only to be cut.
 */
function readHead(path: string): string {
  const fd = openSync(path, "r");
  try {
    const bytes = Math.min(fstatSync(fd).size, (MAX_MEMORY_FILE_CHARS + 1) * 4);
    const buffer = Buffer.allocUnsafe(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    return buffer.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
  }
}

function readMemoryFile(path: string, realPath: string, scope: MemoryScope): MemoryFile | undefined {
  try {
    if (!existsSync(realPath) || !statSync(realPath).isFile()) return undefined;
    // Read by its real path: the one the boundary was decided on (a link swapped in between
    // resolving and reading would otherwise be followed anew).
    const text = readHead(realPath);
    const truncated = text.length > MAX_MEMORY_FILE_CHARS;
    const content = truncated ? text.slice(0, MAX_MEMORY_FILE_CHARS) : text;
    // A binary file named by an import is not instructions.
    if (content.trim() === "" || content.includes("\u0000")) return undefined;
    return { path, realPath, scope, content, truncated };
  } catch {
    // An unreadable memory file (permissions, a dangling link) is skipped, not fatal.
    return undefined;
  }
}

/** How a load treats files outside the project (see config/memory-boundary.ts). */
export interface MemoryLoadOptions {
  /**
   * Whether files outside the project (imports, or a memory file whose link leads out) are read.
   * Default: the user's remembered answer for this project (config/memory-approval.ts), and no
   * when never asked.
   */
  externalImports?: "load" | "skip";
}

export interface MemoryLoad {
  files: MemoryFile[];
  /** Files outside the project that were named and not read (their real paths), for a notice or a question. */
  externalSkipped: string[];
}

/** One load's bookkeeping: what was taken, what was left out, and whether outside files count. */
interface LoadState {
  seen: Set<string>;
  files: MemoryFile[];
  skipped: string[];
  loadExternal: boolean;
}

/**
 * Reads `path` and, after it, the files its `@path` imports name (depth-first, at most
 * MAX_IMPORT_DEPTH levels below the file the user wrote). `roots` are the real folders the chain
 * may read in without approval; a file outside them (by its real path) is read only when the
 * load takes external files, else noted as skipped. `seen` holds every real path already taken, so
 * a cycle or a file imported twice (or under two names) is read once.
 */
function readWithImports(path: string, scope: MemoryScope, roots: readonly MemoryRoot[], state: LoadState): void {
  const take = (named: string, importedFrom: string | undefined): MemoryFile | undefined => {
    const real = realPathOf(named);
    if (real === undefined || state.seen.has(real)) return undefined;
    if (!roots.some((root) => isInside(real, root)) && !state.loadExternal) {
      if (!state.skipped.includes(real)) state.skipped.push(real);
      return undefined;
    }
    state.seen.add(real);
    const file = readMemoryFile(named, real, scope);
    return file && importedFrom !== undefined ? { ...file, importedFrom } : file;
  };
  const visit = (file: MemoryFile, depth: number) => {
    state.files.push(file);
    if (depth >= MAX_IMPORT_DEPTH) return;
    // Relative imports are relative to the folder the file really is in (where its link leads).
    for (const imported of importedPaths(file.content, dirname(file.realPath))) {
      const child = take(imported, file.path);
      if (child) visit(child, depth + 1);
    }
  };
  const file = take(path, undefined);
  if (file) visit(file, 0);
}

/**
 * The memory files a single directory holds (AGENTS.md, CLAUDE.md, .claude/CLAUDE.md,
 * CLAUDE.local.md), with their imports, reading only inside `root` (the working folder `dir` is
 * under) unless external files are approved.
 */
export function projectMemoryFilesIn(dir: string, root: string = dir, options: MemoryLoadOptions = {}): MemoryFile[] {
  const state = newState(root, options);
  for (const [name, scope] of PROJECT_FILES) readWithImports(join(dir, name), scope, [rootOf(root)], state);
  return state.files;
}

function newState(cwd: string, options: MemoryLoadOptions): LoadState {
  const loadExternal =
    options.externalImports !== undefined
      ? options.externalImports === "load"
      : externalImportsDecision(cwd) === "approved";
  return { seen: new Set(), files: [], skipped: [], loadExternal };
}

/** Directories from the filesystem root down to `cwd`, so files nearer the work come later and weigh more. */
function ancestorsRootFirst(cwd: string): string[] {
  const dirs: string[] = [];
  let dir = resolve(cwd);
  while (true) {
    dirs.push(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs.reverse();
}

/**
 * The memory files that apply to `cwd`: the user's own (~/.warden/AGENTS.md, ~/.warden/CLAUDE.md,
 * ~/.claude/CLAUDE.md), then each directory's AGENTS.md, CLAUDE.md, .claude/CLAUDE.md and
 * CLAUDE.local.md from the root down to cwd, each followed by the files its `@path` imports name.
 * A file reached twice (home inside the path, imported by two files) counts once.
 *
 * What each may read without approval: the user's own files, anything in the user's home (and
 * Warden's); a project's (cwd and the folders above it), only what is inside cwd, and for a file
 * in a folder above cwd, that folder's own memory file itself (not a link leading out of it).
 */
export function loadMemory(cwd: string, options: MemoryLoadOptions = {}): MemoryLoad {
  const state = newState(cwd, options);
  const home = wardenHome();
  const userRoots = [rootOf(userHome()), rootOf(home)];
  for (const path of [join(home, "AGENTS.md"), join(home, "CLAUDE.md"), join(userHome(), ".claude", "CLAUDE.md")]) {
    // The user's own file may be a link into their dotfiles wherever those live; what it imports
    // stays in the home unless approved.
    const real = realPathOf(path);
    readWithImports(path, "user", real === undefined ? userRoots : [...userRoots, real], state);
  }
  const project = rootOf(cwd);
  for (const dir of ancestorsRootFirst(cwd)) {
    for (const [name, scope] of PROJECT_FILES) {
      const path = join(dir, name);
      // A file in a folder above the project is that folder's own: it may be there (really
      // there, not a link out), and what it imports must be inside the project like the rest.
      const own = rootOf(dir);
      const real = realPathOf(path);
      const roots = real !== undefined && isInside(real, own) && !isInside(real, project) ? [project, real] : [project];
      readWithImports(path, scope, roots, state);
    }
  }
  return { files: state.files, externalSkipped: state.skipped };
}

/** The memory files that apply to `cwd` (see loadMemory), without the list of what was left out. */
export function loadMemoryFiles(cwd: string, options: MemoryLoadOptions = {}): MemoryFile[] {
  return loadMemory(cwd, options).files;
}
