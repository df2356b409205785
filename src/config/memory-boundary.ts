// Where a memory file may bring text from without asking. A repository's AGENTS.md or CLAUDE.md is
// the repository's text: its `@path` imports (`@~/.ssh/id_rsa`, `@/etc/...`, `@../../x`, a chain of
// them, or a symlink inside the project whose target is outside) would put any file the user can
// read into the first request. As Claude Code does, a file outside the project is imported only
// once the user has approved external imports for this project; the user's own memory (~/.warden,
// ~/.claude) may import from the user's home. Decided on real paths (every symlink followed),
// never on the text of the import.
import { existsSync, realpathSync } from "node:fs";
import { relative, resolve, sep } from "node:path";

/** A folder a chain of memory files may read inside, as its real path. */
export type MemoryRoot = string;

/** The real path of `path`, or undefined when it does not exist (nothing to read then). */
export function realPathOf(path: string): string | undefined {
  const absolute = resolve(path);
  // Most of the places looked at have no file (every folder up to the root is asked for several
  // names): asked first without an exception, as a failed realpath builds an Error with its stack
  // each time (~4 KB and tens of microseconds apiece, at every start). A link to nothing is
  // missing to both. A file gone in between still lands in the catch.
  if (!existsSync(absolute)) return undefined;
  try {
    return realpathSync.native(absolute);
  } catch {
    return undefined;
  }
}

/** Whether `realPath` is `root` or below it (both real paths). */
export function isInside(realPath: string, root: MemoryRoot): boolean {
  const rel = relative(root, realPath);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/** The real path of a folder to use as a root (the folder itself when it cannot be resolved). */
export function rootOf(folder: string): MemoryRoot {
  return realPathOf(folder) ?? resolve(folder);
}
