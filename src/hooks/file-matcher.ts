// FileChanged matchers (Claude Code's hooks reference): file names separated by `|` (`.envrc|.env`),
// each a plain name or a glob (`*.json`), matched against the changed file's name. Unlike tool
// matchers they are never regular expressions: `.env` means the file `.env`, not "any char + env".
import picomatch from "picomatch";

/** The names or globs of a matcher; none for an empty matcher or `*` (every watched file). */
export function fileMatcherEntries(matcher: string | undefined): string[] {
  if (matcher === undefined) return [];
  const entries = matcher
    .split("|")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.includes("*") ? [] : entries;
}

export function isGlob(entry: string): boolean {
  return /[*?[\]{}]/.test(entry);
}

/** Whether a hook with this matcher hears of a change to the file named `name` (its base name). */
export function fileMatcherAccepts(matcher: string | undefined, name: string): boolean {
  const entries = fileMatcherEntries(matcher);
  if (entries.length === 0) return true;
  return entries.some((entry) =>
    isGlob(entry)
      ? picomatch(entry, { dot: true, basename: true })(name)
      : entry === name || entry.endsWith(`/${name}`),
  );
}
