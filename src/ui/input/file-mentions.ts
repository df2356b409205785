// `@path` in the prompt: Tab completes the path from the working directory, and on sending, the
// session attaches each mentioned file by calling the Read tool for it (src/cli/interactive/mentions.ts),
// so deny rules and the other permission checks decide about every byte, as for any other read.
import { readdirSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";

const MENTION = /(^|\s)@([^\s@]*)$/;
const MAX_CANDIDATES = 50;

/** The `@partial` the cursor is at, or undefined. */
export function mentionAtCursor(textBeforeCursor: string): string | undefined {
  return MENTION.exec(textBeforeCursor)?.[2];
}

/** Paths under `cwd` that complete `partial` (folders end with "/"), sorted; hidden entries only when asked for. */
export function completeMention(partial: string, cwd: string): string[] {
  const slash = partial.lastIndexOf("/");
  const dirPart = slash >= 0 ? partial.slice(0, slash + 1) : "";
  const namePart = slash >= 0 ? partial.slice(slash + 1) : partial;
  const dir = resolve(cwd, dirPart || ".");
  // Only inside the working directory: a mention is a shortcut for the project's files.
  if (dir !== resolve(cwd) && !dir.startsWith(resolve(cwd) + sep)) return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(namePart) && (namePart.startsWith(".") || !name.startsWith(".")))
    .filter((name) => name !== "node_modules" || namePart !== "")
    .sort()
    .slice(0, MAX_CANDIDATES)
    .map((name) => {
      let isDir = false;
      try {
        isDir = statSync(join(dir, name)).isDirectory();
      } catch {
        // A broken link completes as a plain name.
      }
      return `${dirPart}${name}${isDir ? "/" : ""}`;
    });
}

/** The longest text every candidate starts with. */
export function commonPrefix(candidates: readonly string[]): string {
  if (candidates.length === 0) return "";
  let prefix = candidates[0] as string;
  for (const c of candidates) while (!c.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * The `@tokens` of a sent prompt, as written (a quoted `@"a b.txt"` without its quotes). An
 * address such as me@example.com is no mention: the `@` must start a word.
 */
export function mentionTokens(prompt: string): string[] {
  const found = new Set<string>();
  for (const match of prompt.matchAll(/(?:^|\s)@(?:"([^"\n]+)"|([^\s@"]+))/g)) {
    const token = match[1] ?? match[2];
    if (token) found.add(token);
  }
  return [...found];
}

/** How the attachment message for the model starts (src/cli/interactive/mentions.ts): a resumed session's history leaves it out. */
export const ATTACHED_PREFIX = "The user attached @";
export const NOT_ATTACHED_PREFIX = "The user mentioned @";
