// PowerShell reads that leave the working directories through a symbolic link the script never
// names: a wildcard path expanding through a link (`Get-Content */id_rsa` with `keys -> ~/.ssh`),
// a reader fed its files by the pipeline (`Get-ChildItem | Get-Content` reads a listed link's
// target), and `-FollowSymlink` listings. The bash side's checks (bash/link-reads.ts), on
// PowerShell's words.
import type { PsArgument, PsCommand } from "../../shell/powershell/index.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { globMatches } from "../bash/glob-matches.js";
import { linkOutsideUnder } from "../bash/link-reads.js";
import { isInsideWorkingDirectories } from "../filesystem/index.js";

/** Cmdlets that read the contents of the files piped to them (listers only print names). */
const CONTENT_READERS = new Set([
  "get-content",
  "select-string",
  "get-filehash",
  "select-xml",
  "import-csv",
  "import-clixml",
]);

/** Why a literal path value of a reading command reaches outside through a link, or undefined. */
export function wildcardReadOutside(
  command: PsCommand,
  path: string,
  cwd: string,
  context: ToolPermissionContext,
): string | undefined {
  if (!/[*?[]/.test(path)) return undefined;
  // PowerShell's wildcards match names that start with a dot too.
  const matches = globMatches(path, cwd, { dot: true });
  if (matches === undefined)
    return `\`${command.source.trim()}\` reads ${path}, a wildcard with more matches than can be checked`;
  const outside = matches.find((match) => !isInsideWorkingDirectories(match, context));
  return outside === undefined
    ? undefined
    : `\`${command.source.trim()}\` reads ${outside} (${path} reaches it through a link), outside the working directories`;
}

/**
 * Why a reading command that names no path (it reads what the pipeline hands it: the files
 * `Get-ChildItem` listed), or a listing that follows links, reaches outside, or undefined.
 */
export function listedReadOutside(
  command: PsCommand,
  patterns: ReadonlySet<PsArgument>,
  followsLinks: boolean,
  cwd: string,
  context: ToolPermissionContext,
): string | undefined {
  const fedByPipeline = CONTENT_READERS.has(command.canonical) && !namesPath(command, patterns);
  if (!fedByPipeline && !followsLinks) return undefined;
  const target = linkOutsideUnder(cwd, context);
  if (target === "unchecked")
    return `\`${command.source.trim()}\` reads what is listed under ${cwd}, a folder too large or too deep to check where its links lead`;
  return target === undefined
    ? undefined
    : `\`${command.source.trim()}\` reads what is listed under ${cwd}, where a link leads to ${target}, outside the working directories`;
}

/**
 * Whether the command names a file to read: a positional value that is not its pattern, or the
 * value of -Path/-LiteralPath (any prefix). Other named values (`-Encoding utf8`) are no file,
 * and without a file the command reads what the pipeline hands it.
 */
function namesPath(command: PsCommand, patterns: ReadonlySet<PsArgument>): boolean {
  return command.args.some((arg, i) => {
    if (arg.kind !== "value" || patterns.has(arg)) return false;
    const before = command.args[i - 1];
    if (before?.kind !== "parameter") return true;
    const name = before.text.replace(/^-+/, "").toLowerCase();
    return ["path", "literalpath", "pspath", "lp"].some((p) => p.startsWith(name) && name.length >= 2);
  });
}
