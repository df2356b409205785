// The symbolic links inside a folder a command reads whole (`grep -R x src`, `rg -L`, `tar ch`,
// `find src -exec cat {} +`): a link in the project can lead to a file a read rule covers, and
// many programs follow it. The walk is bounded: it skips `.git` and `node_modules` (the package
// manager's own links) and stops after MAX_ENTRIES entries or MAX_DEPTH folders down; a walk cut
// short says so, and what follows links there asks (link-reads.ts). It is a best effort over large
// trees; what it finds makes the decision stricter, never looser.
import { type Dirent, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";

const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 12;
const SKIPPED = new Set([".git", "node_modules"]);

/** Where the links under `folder` lead (real paths), as far as the bounded walk gets. */
export function linkTargetsUnder(folder: string): string[] {
  return linkWalk(folder).targets;
}

/** The bounded walk, and whether it saw the whole folder (it stops after MAX_ENTRIES entries). */
export function linkWalk(folder: string): { targets: string[]; complete: boolean } {
  const targets: string[] = [];
  let seen = 0;
  let tooDeep = false;
  const walk = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH) tooDeep = true;
    if (depth > MAX_DEPTH || seen > MAX_ENTRIES) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > MAX_ENTRIES) return;
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        try {
          targets.push(realpathSync.native(path));
        } catch {
          // A dangling link reads nothing.
        }
      } else if (entry.isDirectory() && !SKIPPED.has(entry.name)) walk(path, depth + 1);
    }
  };
  walk(folder, 0);
  return { targets, complete: seen <= MAX_ENTRIES && !tooDeep };
}
