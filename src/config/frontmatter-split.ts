// Markdown files with a YAML frontmatter block: the block between a first line `---` and the next
// `---` (or `...`) line, the rest kept as the body. One split for every such file (agent
// definitions, skills and commands, the trust check of a project's skills); parsing the YAML is
// each caller's, so this file loads nothing (the trust check runs at every start).

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
  if (!closing) throw new Error("the frontmatter is not closed: no second line --- after the first");
  return {
    yaml: rest.slice(0, closing.index),
    body: rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, ""),
  };
}
