// The project's skills and commands as workspace trust sees them: a SKILL.md or command file whose
// frontmatter names `allowed-tools` would let tools run unasked while it runs, so it widens like an
// allow rule in the folder's settings. Its frontmatter is fingerprinted with the rest: the grants
// wait until the folder is trusted, and a changed or added grant makes the user trust it again.
// Only the frontmatter counts: the instructions themselves grant nothing.
import { readFileSync, statSync } from "node:fs";
import { relative } from "node:path";
import { splitFrontmatter } from "../frontmatter-split.js";
import { MAX_SKILL_FILE_BYTES } from "../skills/discover.js";
import { projectSkillFiles } from "../skills/locations.js";
import type { WideningSetting } from "./types.js";

/** The `allowed-tools` entry as written (its line and any list lines under it), for a person to read. */
function grantText(yaml: string): string {
  const lines = yaml.split(/\r?\n/);
  const start = lines.findIndex((line) => line.includes("allowed-tools"));
  if (start === -1) return "";
  const taken = [lines[start]?.replace(/^.*allowed-tools["']?\s*:\s*/, "") ?? ""];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+\S|^-\s/.test(line)) break;
    taken.push(line.trim().replace(/^-\s*/, ""));
  }
  const text = taken.filter(Boolean).join(", ");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export interface ProjectSkillGrants {
  /** Per file (relative to the folder): its frontmatter text, for the fingerprint. */
  content: Record<string, string>;
  widening: WideningSetting[];
}

export function readProjectSkillGrants(cwd: string): ProjectSkillGrants | undefined {
  const content: Record<string, string> = {};
  const widening: WideningSetting[] = [];
  for (const file of projectSkillFiles(cwd)) {
    const name = relative(cwd, file).split("\\").join("/");
    let yaml: string | undefined;
    try {
      if ((statSync(file).size ?? 0) > MAX_SKILL_FILE_BYTES) continue; // skipped by discovery too
      yaml = splitFrontmatter(readFileSync(file, "utf8")).yaml;
    } catch {
      continue; // unreadable or broken: discovery skips it with a warning, so it grants nothing
    }
    // Any mention counts (quoted keys, odd spacing): when in doubt, it waits for trust.
    if (yaml === undefined || !yaml.includes("allowed-tools")) continue;
    content[name] = yaml;
    const what = grantText(yaml);
    widening.push({
      file: name,
      key: "allowed-tools",
      grants: `tools allowed without asking while it runs${what ? `: ${what}` : ""}`,
      known: true,
    });
  }
  return widening.length > 0 ? { content, widening } : undefined;
}
