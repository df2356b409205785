// The project's skills and commands as workspace trust sees them: a SKILL.md or command file whose
// frontmatter grants tools (`allowed-tools`) would let them run unasked while it runs, so it
// widens like an allow rule in the folder's settings, and waits until the folder is trusted.
//
// What a file grants is decided on its meaning, never its text: the file is parsed by the very
// function the skill loader uses (parseFrontmatterSync, same parser and options) and its grants
// read by the loader's own allowedToolsOf. YAML has many spellings of one key (escapes such as
// "allowed\x2dtools", quoted keys, flow maps, tags, anchors and aliases, BOM, CRLF); a search of the
// text for `allowed-tools` let them through. A file the loader cannot read grants nothing (it is
// skipped with a warning), so it needs no trust. What is fingerprinted is the parsed grant list:
// reformatting the file does not ask again, changing a grant does.
import { readFileSync, statSync } from "node:fs";
import { relative } from "node:path";
import { MAX_SKILL_FILE_BYTES } from "../skills/discover.js";
import { allowedToolsOf, grantIdentity, grantsKey, parseFrontmatterSync } from "../skills/frontmatter.js";
import { projectSkillFiles } from "../skills/locations.js";
import type { WideningSetting } from "./types.js";

/** What a skill or command file grants, as the loader would read it; undefined when it grants nothing. */
export function skillFileGrants(text: string): string[] | undefined {
  let grants: string[];
  try {
    grants = allowedToolsOf(parseFrontmatterSync(text).attributes);
  } catch {
    return undefined; // the loader skips the file: it grants nothing
  }
  return grants.length > 0 ? grants : undefined;
}

export interface ProjectSkillGrants {
  /** Per file (relative to the folder): its grants, for the fingerprint. */
  content: Record<string, { allowedTools: string[] }>;
  widening: WideningSetting[];
  /** Per file (grantIdentity: its real path): the grants trust was decided on (grantsKey). */
  byFile: Record<string, string>;
}

export function readProjectSkillGrants(cwd: string): ProjectSkillGrants | undefined {
  const content: Record<string, { allowedTools: string[] }> = {};
  const widening: WideningSetting[] = [];
  const byFile: Record<string, string> = {};
  for (const file of projectSkillFiles(cwd)) {
    const name = relative(cwd, file).split("\\").join("/");
    let text: string;
    try {
      if ((statSync(file).size ?? 0) > MAX_SKILL_FILE_BYTES) continue; // skipped by discovery too
      text = readFileSync(file, "utf8");
    } catch {
      continue; // unreadable: discovery skips it with a warning, so it grants nothing
    }
    const grants = skillFileGrants(text);
    if (grants === undefined) continue;
    content[name] = { allowedTools: grants };
    byFile[grantIdentity(file)] = grantsKey(grants);
    const what = grants.join(", ");
    widening.push({
      file: name,
      key: "allowed-tools",
      grants: `tools allowed without asking while it runs: ${what.length > 200 ? `${what.slice(0, 199)}…` : what}`,
      known: true,
    });
  }
  return widening.length > 0 ? { content, widening, byFile } : undefined;
}
