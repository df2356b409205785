// Where a PowerShell path argument lands. PowerShell is not bash: on every platform it takes `\`
// as a path separator (`Get-Content ..\..\etc\passwd` on Linux reads /etc/passwd), a path may
// name its provider (`FileSystem::/etc/passwd`, `Microsoft.PowerShell.Core\FileSystem::x`), and
// a drive may be no folder at all (`env:GITHUB_TOKEN`, `function:ls`, `variable:x`, `HKCU:`).
// Checking such a word as a plain relative file name would place it inside the working folder.
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import type { PsArgument, PsCommand } from "../../shell/powershell/index.js";
import { globMatches } from "../bash/glob-matches.js";

/** `Provider::rest`, optionally module-qualified (`Microsoft.PowerShell.Core\FileSystem::rest`). */
const PROVIDER_QUALIFIED = /^(?:[\w.]+\\)?([\w.]+)::(.*)$/s;
/** `Name:rest`: a PowerShell drive (one letter on Windows is a disk). */
const DRIVE = /^([A-Za-z][\w]*):(.*)$/s;

export type PsPath =
  /**
   * The file system paths the word may name (both readings of a `\`), absolute; `unlisted` when
   * a wildcard among them matched more than could be listed.
   */
  | { kind: "file"; paths: string[]; unlisted?: boolean }
  /** A drive or provider that holds no files: environment variables, functions, the registry... */
  | { kind: "provider"; drive: string };

export function psPathOf(text: string, cwd: string): PsPath {
  let rest = text;
  const qualified = PROVIDER_QUALIFIED.exec(rest);
  if (qualified) {
    const provider = qualified[1] ?? "";
    if (provider.toLowerCase() !== "filesystem") return { kind: "provider", drive: provider };
    rest = qualified[2] ?? "";
  }
  const drive = DRIVE.exec(rest);
  // A disk letter is a path on Windows; anywhere else (and for any longer name) a drive that is
  // no folder of ours: `env:`, `variable:`, `function:`, `alias:`, `temp:`, `cert:`, `HKLM:`.
  if (drive && !(process.platform === "win32" && drive[1]?.length === 1)) {
    return { kind: "provider", drive: drive[1] ?? "" };
  }
  const readings = rest.includes("\\") ? [rest, rest.replace(/\\/g, "/")] : [rest];
  return { kind: "file", paths: [...new Set(readings.map((r) => absolute(r, cwd)))] };
}

/** Whether a provider drive is the environment (`env:`, `Environment::`): reading it prints secrets. */
export function isEnvironmentDrive(drive: string): boolean {
  return /^(env|environment)$/i.test(drive);
}

function absolute(text: string, cwd: string): string {
  const home = /^~(?=$|[\\/])/.test(text) ? `${homedir()}${text.slice(1)}` : text;
  return isAbsolute(home) ? resolve(home) : resolve(cwd, home);
}

/**
 * The values a reader takes as a search pattern, not a path: `-Pattern`'s, or Select-String's
 * first positional value. A pattern such as `TODO:` would otherwise read as a PowerShell drive.
 */
export function patternValues(command: PsCommand): Set<PsArgument> {
  const patterns = new Set<PsArgument>();
  let named = false;
  command.args.forEach((arg, i) => {
    const before = command.args[i - 1];
    if (arg.kind === "parameter" && /^-pattern$/i.test(arg.text)) named = true;
    if (arg.kind === "value" && before?.kind === "parameter" && /^-pattern$/i.test(before.text)) patterns.add(arg);
  });
  if (command.canonical === "select-string" && !named) {
    const first = command.args.find((arg, i) => arg.kind === "value" && command.args[i - 1]?.kind !== "parameter");
    if (first) patterns.add(first);
  }
  return patterns;
}

/** Where a literal value lands; a pattern is checked as the plain relative word it was before. */
export function placeOf(arg: PsArgument, patterns: ReadonlySet<PsArgument>, cwd: string): PsPath {
  const place = psPathOf(arg.text, cwd);
  if (place.kind === "provider" && patterns.has(arg)) return psPathOf(`./${arg.text}`, cwd);
  return place;
}

/**
 * A write target with its wildcards expanded (Set-Content, Add-Content, Copy-Item... write to the
 * existing items `.g?t/config` matches): the paths it may name now, or every path as the place
 * itself when a wildcard has more matches than can be listed (the root, which no check allows).
 */
export function withWildcardMatches(place: PsPath, cwd: string): PsPath {
  if (place.kind !== "file") return place;
  const paths = [...place.paths];
  for (const path of place.paths) {
    if (!/[*?[]/.test(path)) continue;
    const matches = globMatches(path, cwd, { dot: true });
    if (matches === undefined) return { kind: "file", paths, unlisted: true };
    paths.push(...matches);
  }
  return { kind: "file", paths };
}
