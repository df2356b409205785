// Rule files (Claude Code's `.claude/rules/*.md`, subfolders too, the user's in ~/.claude/rules/):
// instructions like CLAUDE.md, split by topic. A file whose frontmatter has `paths` (a glob or a
// list of globs, relative to the project) applies only to matching files: it is loaded once the
// model works on one. A file without `paths` always applies.
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { MemoryFile } from "./memory.js";
import { MAX_MEMORY_FILE_CHARS } from "./memory.js";
import { userHome } from "./paths.js";
import { parseFrontmatterSync } from "./skills/frontmatter.js";

export interface RuleFile extends MemoryFile {
  /** Globs of the files it applies to; absent: always. */
  paths?: string[];
}

function markdownFilesUnder(dir: string, depth = 0): string[] {
  if (depth > 5) return [];
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) files.push(...markdownFilesUnder(path, depth + 1));
    else if (entry.endsWith(".md")) files.push(path);
  }
  return files;
}

function pathsOf(value: unknown): string[] | undefined {
  if (typeof value === "string")
    return value
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
  if (Array.isArray(value)) return value.filter((p): p is string => typeof p === "string" && p.trim() !== "");
  return undefined;
}

/** The user's rule files, then the project's; a file that cannot be read or parsed is a warning. */
export function loadRuleFiles(cwd: string, warnings: string[] = []): RuleFile[] {
  const sources: Array<[string, MemoryFile["scope"]]> = [
    [join(userHome(), ".claude", "rules"), "user"],
    [join(cwd, ".claude", "rules"), "project"],
  ];
  const rules: RuleFile[] = [];
  for (const [dir, scope] of sources) {
    for (const path of markdownFilesUnder(dir)) {
      try {
        const text = readFileSync(path, "utf8");
        const { attributes, body } = parseFrontmatterSync(text);
        const content = body.trim();
        const truncated = content.length > MAX_MEMORY_FILE_CHARS;
        const paths = pathsOf(attributes.paths);
        rules.push({
          path,
          realPath: realpathSync(path),
          scope,
          content: truncated ? content.slice(0, MAX_MEMORY_FILE_CHARS) : content,
          truncated,
          ...(paths?.length ? { paths } : {}),
        });
      } catch (error) {
        warnings.push(`rule file ${path} was skipped: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return rules;
}
