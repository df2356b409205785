// A cheap fingerprint of the skill folders: each root's entries with their SKILL.md's size and
// modification time. It changes when a skill is added, removed or edited, so a session reads the
// folders again (discover.ts, which parses every file) only when this says something changed:
// a few directory reads and stats before a request instead of a full discovery.
import { readdirSync, statSync } from "node:fs";
import { skillFileOf, skillRoots } from "./locations.js";

export function skillFoldersStamp(cwd: string): string {
  const parts: string[] = [];
  for (const root of skillRoots(cwd, "skills")) {
    let entries: string[];
    try {
      entries = readdirSync(root.dir).sort();
    } catch {
      parts.push(`${root.dir}:-`);
      continue;
    }
    for (const entry of entries) {
      const file = skillFileOf(root.dir, "skills", entry) as string;
      try {
        const stat = statSync(file);
        parts.push(`${file}:${stat.size}:${stat.mtimeMs}`);
      } catch {
        parts.push(`${file}:-`);
      }
    }
  }
  return parts.join("\n");
}
