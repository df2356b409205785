// Where a path really leads. A link inside the project that points outside is outside: checking
// only the spelled path would let `ln -s ~/.ssh project/keys` (or a dangling link whose target a
// write would create) slip past every boundary.

import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { resolvedPath } from "./resolved-path.js";

const MAX_LINK_HOPS = 40;

/**
 * The real location of a path that may not exist yet: symlinks resolved in every existing part,
 * dangling links followed to where a write would land, the missing tail appended.
 */
export function resolveRealPath(path: string, hops = 0): string {
  const absolute = resolvedPath(path);
  const stats = statsIfVisible(absolute);
  if (stats !== undefined) {
    try {
      return realpathSync.native(absolute);
    } catch {
      // A dangling link (or a loop): follow it by hand below.
    }
    if (stats.isSymbolicLink() && hops < MAX_LINK_HOPS) {
      try {
        return resolveRealPath(resolve(dirname(absolute), readlinkSync(absolute)), hops + 1);
      } catch {
        // Unreadable link: fall through to its parent.
      }
    }
  }
  const parent = dirname(absolute);
  if (parent === absolute) return absolute;
  return join(resolveRealPath(parent, hops + 1), basename(absolute));
}

/**
 * The link's own stats, or undefined when there is nothing this process can see there: no entry
 * (without an exception: a new file is the common case, and exceptions are costly), a path through
 * a file (`notes.txt/x`, ENOTDIR), a folder it may not search (EACCES), a loop of links. In each of those cases
 * no command of this user can reach past that point either, so the real place is where the parent
 * really is. Anything else (an I/O error) is thrown: the place cannot be known.
 */
function statsIfVisible(absolute: string): Stats | undefined {
  try {
    return lstatSync(absolute, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR" || code === "EACCES" || code === "ELOOP" || code === "ENAMETOOLONG") return undefined;
    throw error;
  }
}

/** The path as spelled (normalised) and where it leads, without duplicates. */
export function pathsToCheck(absolutePath: string): string[] {
  const spelled = resolvedPath(absolutePath);
  const real = resolveRealPath(spelled);
  return real === spelled ? [spelled] : [spelled, real];
}

const realDirectoryCache = new Map<string, string>();

/** Working directories rarely move during a session, so their real paths are cached. */
export function realDirectory(dir: string): string {
  let real = realDirectoryCache.get(dir);
  if (real === undefined) {
    real = resolveRealPath(dir);
    realDirectoryCache.set(dir, real);
  }
  return real;
}
