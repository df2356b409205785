// Markdown files with a YAML frontmatter block (agent definitions, and any other `---` headed
// file): the block parsed by the `yaml` package, the rest kept as the body. Only the first block
// counts, and it must open on the file's first line, as every tool that writes such files does.
import { parseDocument } from "yaml";

export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; reason: string };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

export function parseFrontmatter(text: string): FrontmatterResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const opening = OPENING.exec(source);
  if (!opening) return { ok: false, reason: "no frontmatter: the file must start with a line '---'" };
  const rest = source.slice(opening[0].length);
  // An empty block closes on the very next line.
  const closing = rest.startsWith("---") ? { index: 0, 0: rest.split(/\r?\n/, 1)[0] ?? "---" } : CLOSING.exec(rest);
  if (!closing) return { ok: false, reason: "the frontmatter is not closed: no second line '---'" };
  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  const document = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const line = first?.linePos?.[0]?.line;
    // linePos is 1-based within the block; +1 for the opening line of the file.
    return {
      ok: false,
      reason: `invalid YAML in the frontmatter${line === undefined ? "" : ` (line ${line + 1} of the file)`}: ${first?.message.split(/ at line \d+|\n/)[0] ?? "parse error"}`,
    };
  }
  const data: unknown = document.toJS({ maxAliasCount: 50 });
  if (data === null || data === undefined) return { ok: true, data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, reason: "the frontmatter must be a mapping of keys to values" };
  }
  return { ok: true, data: data as Record<string, unknown>, body };
}
