// A Markdown file's YAML frontmatter: the block between a first line `---` and the next `---` (or
// `...`) line. The split is ours; the YAML itself is parsed by the `yaml` package, loaded on first
// use so that a session without skills or commands never pays for it.

export interface MarkdownWithFrontmatter {
  /** The frontmatter's keys and values; empty when the file has none. */
  attributes: Record<string, unknown>;
  /** The text after the frontmatter. */
  body: string;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * The frontmatter's YAML text and the body, without parsing (undefined yaml: the file has none).
 * Throws when a frontmatter is opened and never closed.
 */
export function splitFrontmatter(text: string): { yaml: string | undefined; body: string } {
  const opening = OPENING.exec(text);
  if (!opening) return { yaml: undefined, body: text.replace(/^\uFEFF/, "") };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new Error("the frontmatter opened with --- is never closed by a --- line");
  return {
    yaml: rest.slice(0, closing.index),
    body: rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, ""),
  };
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
