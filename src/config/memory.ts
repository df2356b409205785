// Memory files: standing instructions the user keeps in Markdown (AGENTS.md, and Claude Code's
// CLAUDE.md so an existing project works unchanged). Read synchronously at session start: they are
// few and small, and the system prompt cannot be built without them.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { importedPaths, MAX_IMPORT_DEPTH } from "./memory-imports.js";
import { userHome, wardenHome } from "./paths.js";

export type MemoryScope = "user" | "project" | "local";

export interface MemoryFile {
  path: string;
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

function readMemoryFile(path: string, scope: MemoryScope): MemoryFile | undefined {
  try {
    if (!existsSync(path) || !statSync(path).isFile()) return undefined;
    const text = readFileSync(path, "utf8");
    const truncated = text.length > MAX_MEMORY_FILE_CHARS;
    const content = truncated ? text.slice(0, MAX_MEMORY_FILE_CHARS) : text;
    // A binary file named by an import is not instructions.
    if (content.trim() === "" || content.includes("\u0000")) return undefined;
    return { path, scope, content, truncated };
  } catch {
    // An unreadable memory file (permissions, a dangling link) is skipped, not fatal.
    return undefined;
  }
}

/**
 * Reads `path` and, after it, the files its `@path` imports name (depth-first, at most
 * MAX_IMPORT_DEPTH levels below the file the user wrote). `seen` holds every path already taken,
 * so a cycle or a file imported twice is read once.
 */
function readWithImports(path: string, scope: MemoryScope, seen: Set<string>, into: MemoryFile[]): void {
  const visit = (file: MemoryFile, depth: number) => {
    into.push(file);
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const imported of importedPaths(file.content, dirname(file.path))) {
      if (seen.has(imported)) continue;
      seen.add(imported);
      const child = readMemoryFile(imported, scope);
      if (child) visit({ ...child, importedFrom: file.path }, depth + 1);
    }
  };
  if (seen.has(path)) return;
  seen.add(path);
  const file = readMemoryFile(path, scope);
  if (file) visit(file, 0);
}

/** The memory files a single directory holds (AGENTS.md, CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md), with their imports. */
export function projectMemoryFilesIn(dir: string): MemoryFile[] {
  const files: MemoryFile[] = [];
  const seen = new Set<string>();
  for (const [name, scope] of PROJECT_FILES) readWithImports(join(dir, name), scope, seen, files);
  return files;
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
 */
export function loadMemoryFiles(cwd: string): MemoryFile[] {
  const seen = new Set<string>();
  const files: MemoryFile[] = [];
  const consider = (path: string, scope: MemoryScope) => readWithImports(path, scope, seen, files);
  const home = wardenHome();
  consider(join(home, "AGENTS.md"), "user");
  consider(join(home, "CLAUDE.md"), "user");
  consider(join(userHome(), ".claude", "CLAUDE.md"), "user");
  for (const dir of ancestorsRootFirst(cwd)) {
    for (const [name, scope] of PROJECT_FILES) consider(join(dir, name), scope);
  }
  return files;
}
