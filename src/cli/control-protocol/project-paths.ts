// Project files whose path contains a query (case-insensitive), for file_suggestions: a bounded
// walk of the project (hidden folders and node_modules left out), shortest paths first, so a host's
// @-completion finds `src/cli/main.ts` from `main`.
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders never walked: dependencies and version control hold nothing a person mentions. */
const SKIPPED = new Set(["node_modules", ".git"]);
/** The walk stops after this many entries, so a huge tree cannot stall the answer. */
const MAX_ENTRIES = 20_000;

export function findProjectPaths(cwd: string, query: string, limit: number): string[] {
  const needle = query.toLowerCase();
  const found: string[] = [];
  const queue: string[] = [""];
  let seen = 0;
  while (queue.length > 0 && seen < MAX_ENTRIES) {
    const dir = queue.shift() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(cwd, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      seen++;
      if (entry.name.startsWith(".") || SKIPPED.has(entry.name)) continue;
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) queue.push(path);
      if (path.toLowerCase().includes(needle)) found.push(entry.isDirectory() ? `${path}/` : path);
    }
  }
  return found.sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, limit);
}
