// `@path` in the prompt: Tab completes the path from the working directory, and on sending, the
// mentioned files are named to the model in a note so that it reads them with the Read tool. The
// contents go through Read (not pasted into the prompt here) so that deny rules and the other
// permission checks decide about every byte, as for any other read.
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

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

/** The files a sent prompt mentions that exist under `cwd`, as paths relative to it. */
export function mentionedFiles(prompt: string, cwd: string): string[] {
  const found = new Set<string>();
  for (const match of prompt.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const path = resolve(cwd, match[1] as string);
    try {
      if (statSync(path).isFile()) found.add(relative(cwd, path) || path);
    } catch {
      // Not a file: an e-mail address, a handle, a typo. Left as the person wrote it.
    }
  }
  return [...found];
}

/** The prompt as the model receives it: the person's words, then a note naming the mentioned files. */
export function withMentionNote(prompt: string, cwd: string): string {
  const files = mentionedFiles(prompt, cwd);
  if (files.length === 0) return prompt;
  return `${prompt}\n\n(The user mentioned ${files.length === 1 ? "this file" : "these files"}: ${files.join(", ")}. Read ${files.length === 1 ? "it" : "them"} with the Read tool if you need the contents.)`;
}
