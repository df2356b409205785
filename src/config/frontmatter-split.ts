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

/** A top-level `key: value` line whose value is plain (not quoted, a flow collection, a block or an alias). */
const PLAIN_VALUE_LINE = /^([A-Za-z_][\w-]*):[ \t]+([^"'[{|>&*!\s].*?)[ \t]*$/;

/**
 * The frontmatter with every one-line plain value that YAML would misread (one holding `: ` or
 * ` #`, as in `description: Use this agent when: ...`) written as a quoted string; undefined when
 * there is none. Claude Code reads such files (its own plugins ship agents written this way) by
 * quoting the same values on a second try, so a file that fails to parse is tried again with this.
 * Trust and the loaders call the same parser, so what a file means is decided once.
 */
export function quoteAmbiguousValues(yaml: string): string | undefined {
  let changed = false;
  const lines = yaml.split("\n").map((line) => {
    const match = PLAIN_VALUE_LINE.exec(line.replace(/\r$/, ""));
    const value = match?.[2];
    if (match === null || value === undefined || !(value.includes(": ") || value.includes(" #"))) return line;
    changed = true;
    return `${match[1]}: ${JSON.stringify(value)}`;
  });
  return changed ? lines.join("\n") : undefined;
}
