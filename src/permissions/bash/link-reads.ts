// Reads that leave the working directories through a symbolic link the text never names. A path
// the text names is resolved through its links already (`cat keys/id_rsa` with `keys -> ~/.ssh`
// asks); a glob is not (`cat */id_rsa` expands to that same file), nor are the links a recursive
// read follows inside a folder (`grep -R`, `rg -L`, `find -L`, `ls -RL`, `du -L`, `tree -l`). A
// repository can ship such a link, so each is checked against where it really leads.
import { isDirectory } from "../../fs/path-kind.js";
import { resolveRealPath } from "../../fs/real-path.js";
import { resolveWordPath } from "../../shell/commands/index.js";
import { commandBaseName, type Field } from "../../shell/words/index.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { isInsideWorkingDirectories } from "../filesystem/index.js";
import { globMatches } from "./glob-matches.js";
import { linkWalk } from "./linked-files.js";

export interface LinkedRead {
  reason: string;
  /** The place outside (absolute), offered as a folder to add. */
  at?: string;
}

/**
 * The first read of a read-only command (`words`, its read `paths`) that a link carries outside
 * the working directories, or undefined.
 */
export function linkedReadOutside(
  words: Field[],
  paths: Field[],
  cwd: string,
  context: ToolPermissionContext,
): LinkedRead | undefined {
  const folders: string[] = [];
  for (const path of paths) {
    if (!path.literal) continue;
    if (!path.glob) {
      const absolute = resolveWordPath(path, cwd);
      if (absolute !== undefined && isDirectory(absolute)) folders.push(absolute);
      continue;
    }
    const matches = globMatches(path.value, cwd);
    if (matches === undefined)
      return { reason: `it reads ${path.source}, a glob with more matches than can be checked` };
    for (const match of matches) {
      if (!isInsideWorkingDirectories(match, context)) {
        const real = resolveRealPath(match);
        return {
          reason: `it reads ${real} (${path.source} reaches it through a link), outside the working directories`,
          at: real,
        };
      }
      if (isDirectory(match)) folders.push(match);
    }
  }
  if (!followsLinks(words)) return undefined;
  // With no folder named, these commands search the one they run in.
  if (paths.length === 0) folders.push(cwd);
  for (const folder of folders) {
    const outside = linkOutsideUnder(folder, context);
    if (outside === "unchecked")
      return { reason: `it follows the links under ${folder}, too large or too deep to check where they all lead` };
    if (outside !== undefined)
      return {
        reason: `it follows the links under ${folder}, and one leads to ${outside}, outside the working directories`,
        at: outside,
      };
  }
  return undefined;
}

/**
 * Where a link under `folder` leads when that is outside the working directories: the names a
 * lister there prints (`git ls-files`, `find .`, `ls`) may be such a link, and what they feed
 * (`| xargs cat`) reads where it leads.
 */
export function linkOutsideUnder(folder: string, context: ToolPermissionContext): string | "unchecked" | undefined {
  const { targets, complete } = linkWalk(folder);
  const outside = targets.find((t) => !isInsideWorkingDirectories(t, context));
  // A walk cut short may have missed the one link that leads out: it cannot clear the folder.
  return outside ?? (complete ? undefined : "unchecked");
}
/** Whether the command, reading a folder whole, follows the symbolic links it meets there. */
function followsLinks(words: Field[]): boolean {
  const name = commandBaseName(words[0]?.value ?? "");
  const values = words.slice(1).map((w) => w.value);
  const short = (letter: string) => values.some((v) => new RegExp(`^-[a-zA-Z0-9]*${letter}`).test(v));
  const long = (...names: string[]) => values.some((v) => names.includes(v));
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
      // BSD grep (macOS) follows links under -r with -S.
      return short("R") || short("S") || long("--dereference-recursive");
    case "rg":
    case "fd":
    case "fdfind":
      return short("L") || long("--follow");
    case "ag":
      return short("f") || long("--follow");
    case "find":
      return long("-L", "-follow");
    case "ls":
      return (short("R") || long("--recursive")) && (short("L") || long("--dereference"));
    case "du":
      return short("L") || long("--dereference");
    case "tree":
      return long("-l");
    default:
      return false;
  }
}
