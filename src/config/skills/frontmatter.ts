// A skill's or command's YAML frontmatter (optional for them), split as every frontmatter is
// (../frontmatter-split.ts) and parsed by the `yaml` package (../yaml-load.ts, loaded on first use
// so that a session without skills or commands never pays for it). Workspace trust reads the same
// files with the same function (src/config/trust/project-skills.ts): what a file grants is decided
// on what this parser makes of it, never on its text.
import { realpathSync } from "node:fs";
import { quoteAmbiguousValues, splitFrontmatter } from "../frontmatter-split.js";
import { yamlModule } from "../yaml-load.js";

export { splitFrontmatter };

export interface MarkdownWithFrontmatter {
  /** The frontmatter's keys and values; empty when the file has none. */
  attributes: Record<string, unknown>;
  /** The text after the frontmatter. */
  body: string;
}

/** Splits and parses; throws an Error naming the problem (not the file: the caller knows it). */
export function parseFrontmatterSync(text: string): MarkdownWithFrontmatter {
  const { yaml: yamlText, body } = splitFrontmatter(text);
  if (yamlText === undefined) return { attributes: {}, body };
  // JSON-compatible values only: no custom tags, no aliases blown up into huge documents.
  const parse = (source: string): unknown =>
    yamlModule().parse(source, { schema: "core", maxAliasCount: 20, prettyErrors: true });
  let parsed: unknown;
  try {
    parsed = parse(yamlText);
  } catch (error) {
    // A value holding `: ` unquoted, as Claude Code's own plugins write them: tried again quoted.
    const quoted = quoteAmbiguousValues(yamlText);
    try {
      if (quoted === undefined) throw error;
      parsed = parse(quoted);
    } catch {
      throw new Error(`its frontmatter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (parsed === null || parsed === undefined) return { attributes: {}, body };
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error("its frontmatter must be a set of `key: value` lines");
  }
  return { attributes: parsed as Record<string, unknown>, body };
}

/** The same, for callers that await (kept so the loaders read as before). */
export async function parseFrontmatter(text: string): Promise<MarkdownWithFrontmatter> {
  return parseFrontmatterSync(text);
}

/**
 * `allowed-tools: Read, Grep` or a YAML list; each item kept as written. Throws (the file is then
 * not loaded, so it grants nothing) when it is neither.
 */
export function allowedToolsOf(attributes: Record<string, unknown>): string[] {
  const value = attributes["allowed-tools"];
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (typeof item !== "string") throw new Error("`allowed-tools` must be a string or a list of strings");
    return item.trim();
  });
}

/** A file's grants as one string: what trust recorded and what the catalog holds are compared by it. */
export function grantsKey(grants: readonly string[]): string {
  return JSON.stringify(grants);
}

/** The file a grant belongs to, whatever path reached it (a folder reached through a link). */
export function grantIdentity(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
