// path.resolve for the paths that are nearly always already resolved. Every file tool call resolves
// its path several times over (the tool's own checks, the permission engine's spelled and real
// paths, each working directory), and Node's resolve rebuilds the string segment by segment each
// time, even when it comes back unchanged: about a tenth of the garbage a turn of 8 small Reads
// made, enough to help bring a collection between the answer and the follow-up request.
import { isAbsolute, relative, resolve, sep } from "node:path";

/** An empty, "." or ".." segment, or a slash at the end (after something): what resolve would change. */
const NOT_RESOLVED = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/**
 * True when `path` is an absolute POSIX path that `path.resolve` gives back unchanged: it starts at
 * the root and has no empty, "." or ".." segment and no trailing slash. (Not on Windows, where
 * every path takes Node's own way.)
 */
export function isResolvedPath(path: string): boolean {
  return sep === "/" && path.charCodeAt(0) === 47 && !NOT_RESOLVED.test(path);
}

/** `path.resolve(base, path)` (`base` defaults to the process's working directory), exactly. */
export function resolvedPath(path: string, base?: string): string {
  if (isResolvedPath(path)) return path;
  return base === undefined ? resolve(path) : resolve(base, path);
}

/**
 * Whether `target` is `dir` or inside it, by their resolved forms: exactly what comparing through
 * `path.relative` says, without building the relative path when both are already resolved.
 */
export function isPathWithin(dir: string, target: string): boolean {
  if (isResolvedPath(dir) && isResolvedPath(target)) {
    if (dir === "/" || target === dir) return true;
    return target.length > dir.length && target.charCodeAt(dir.length) === 47 && target.startsWith(dir);
  }
  const rel = relative(dir, target);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}
