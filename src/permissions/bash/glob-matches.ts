// What an unquoted glob in a command names on disk right now, as bash would expand it: `*`, `?`
// and `[...]` inside one path segment, a leading dot matched only by a pattern that starts with one
// (bash's default, dotglob off), `**` as `*` (globstar off). Used only to make a decision stricter:
// `cat secr*/*` is denied when an expansion reaches a file a Read deny rule covers. A glob that
// cannot be expanded within the limits is left to the caller's folder-wide check.
import { readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import picomatch from "picomatch";

/** More entries than this and the expansion is given up (the caller then asks for the folder). */
const MAX_VISITED = 5_000;

/**
 * Absolute paths the glob expands to, or undefined when they could not all be listed. `dot`: a
 * wildcard matches a leading dot too (PowerShell's wildcards do; bash's do not by default).
 */
export function globMatches(pattern: string, cwd: string, options: { dot?: boolean } = {}): string[] | undefined {
  const absolute = isAbsolute(pattern) ? pattern : resolve(cwd, pattern);
  const segments = absolute.split("/").filter((s) => s !== "");
  let current = ["/"];
  let visited = 0;
  for (const segment of segments) {
    const next: string[] = [];
    if (!/[*?[]/.test(segment)) {
      for (const dir of current) next.push(join(dir, segment));
    } else {
      const isMatch = picomatch(segment.replace(/\*\*+/g, "*"), {
        dot: options.dot === true || segment.startsWith("."),
      });
      for (const dir of current) {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          continue;
        }
        visited += names.length;
        if (visited > MAX_VISITED) return undefined;
        for (const name of names) if (isMatch(name)) next.push(join(dir, name));
      }
    }
    current = next;
    if (current.length === 0) return [];
  }
  return current;
}
