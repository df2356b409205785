// completion/complete for `warden mcp serve`: file paths, for the file template's `path` variable
// (absolute, without the leading slash, as `file:///{+path}` spells it) and for prompt arguments
// (relative to the working directory). Only entries under the working directories are offered, and
// the folders above them that lead there, so a client can walk down from `/`.
import { readdir } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The specification's limit on values in one completion answer. */
export const MAX_COMPLETIONS = 100;

export interface CompletionAnswer {
  values: string[];
  total: number;
  hasMore: boolean;
}

function isWithin(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep) && rel !== "..");
}

/** True when `path` is inside a working directory, or is a folder on the way down to one. */
function isReachable(path: string, workingDirectories: readonly string[]): boolean {
  return workingDirectories.some((dir) => isWithin(dir, path) || isWithin(path, dir));
}

/**
 * Completes `typed` (a path prefix) to the entries of its folder that start with what follows the
 * last slash. `base` is the folder relative paths start from; `absoluteWithoutSlash` says the
 * template's spelling, in which `/work/x` is written `work/x`.
 */
export async function completePath(
  typed: string,
  options: { base: string; workingDirectories: readonly string[]; absoluteWithoutSlash: boolean },
): Promise<CompletionAnswer> {
  const asPath = options.absoluteWithoutSlash ? `/${typed}` : typed;
  const endsWithSlash = asPath.endsWith("/");
  const full = resolve(options.base, asPath);
  const folder = endsWithSlash ? full : dirname(full);
  const start = endsWithSlash ? "" : asPath.slice(asPath.lastIndexOf("/") + 1);
  let entries: Array<{ name: string; isDirectory: boolean }>;
  try {
    const dirents = await readdir(folder, { withFileTypes: true });
    entries = dirents.map((d) => ({ name: d.name, isDirectory: d.isDirectory() }));
  } catch {
    return { values: [], total: 0, hasMore: false };
  }
  const matches = entries
    .filter((e) => e.name.startsWith(start) && isReachable(join(folder, e.name), options.workingDirectories))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e) => {
      const path = join(folder, e.name) + (e.isDirectory ? "/" : "");
      if (options.absoluteWithoutSlash) return path.slice(1);
      const rel = relative(options.base, path);
      return e.isDirectory && !rel.endsWith("/") ? `${rel}/` : rel;
    });
  return {
    values: matches.slice(0, MAX_COMPLETIONS),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETIONS,
  };
}
