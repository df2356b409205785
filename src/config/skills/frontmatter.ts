// A skill's or command's YAML frontmatter (optional for them), split as every frontmatter is
// (../frontmatter-split.ts) and parsed by the `yaml` package, loaded on first use so that a session
// without skills or commands never pays for it.
import { splitFrontmatter } from "../frontmatter-split.js";

export { splitFrontmatter };

export interface MarkdownWithFrontmatter {
  /** The frontmatter's keys and values; empty when the file has none. */
  attributes: Record<string, unknown>;
  /** The text after the frontmatter. */
  body: string;
}

/** Splits and parses; throws an Error naming the problem (not the file: the caller knows it). */
export async function parseFrontmatter(text: string): Promise<MarkdownWithFrontmatter> {
  const { yaml: yamlText, body } = splitFrontmatter(text);
  if (yamlText === undefined) return { attributes: {}, body };
  const { parse } = await import("yaml");
  let parsed: unknown;
  try {
    // JSON-compatible values only: no custom tags, no aliases blown up into huge documents.
    parsed = parse(yamlText, { schema: "core", maxAliasCount: 20, prettyErrors: true });
  } catch (error) {
    throw new Error(`its frontmatter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null || parsed === undefined) return { attributes: {}, body };
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error("its frontmatter must be a set of `key: value` lines");
  }
  return { attributes: parsed as Record<string, unknown>, body };
}
