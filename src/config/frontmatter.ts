// An agent definition's YAML frontmatter, which it must have (split by ./frontmatter-split.ts as
// every frontmatter is), parsed by the `yaml` package (./yaml-load.ts) with the reason when it
// cannot be used. Workspace trust judges project agents with this same function.
import { quoteAmbiguousValues, splitFrontmatter } from "./frontmatter-split.js";
import { yamlModule } from "./yaml-load.js";

export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; reason: string };

/** An agent file's frontmatter, which it must have; the reason when it cannot be used. */
export function parseFrontmatter(text: string): FrontmatterResult {
  let split: { yaml: string | undefined; body: string };
  try {
    split = splitFrontmatter(text);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  const { yaml: yamlText, body } = split;
  if (yamlText === undefined) return { ok: false, reason: "no frontmatter: the file must start with a line '---'" };
  let document = yamlModule().parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  const quoted = document.errors.length > 0 ? quoteAmbiguousValues(yamlText) : undefined;
  if (quoted !== undefined) {
    const retried = yamlModule().parseDocument(quoted, { prettyErrors: true, uniqueKeys: true });
    if (retried.errors.length === 0) document = retried;
  }
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const line = first?.linePos?.[0]?.line;
    // linePos is 1-based within the block; +1 for the opening line of the file.
    return {
      ok: false,
      reason: `invalid YAML in the frontmatter${line === undefined ? "" : ` (line ${line + 1} of the file)`}: ${first?.message.split(/ at line \d+|\n/)[0] ?? "parse error"}`,
    };
  }
  let data: unknown;
  try {
    // toJS throws when aliases would blow the document up (a hostile repository's agent file): that
    // file is unusable, the session is not.
    data = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    return { ok: false, reason: `invalid YAML in the frontmatter: ${(error as Error).message}` };
  }
  if (data === null || data === undefined) return { ok: true, data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, reason: "the frontmatter must be a mapping of keys to values" };
  }
  return { ok: true, data: data as Record<string, unknown>, body };
}
