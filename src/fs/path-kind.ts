// Small questions about a path that several layers ask (the CLI, the Bash tool, the sandbox,
// ripgrep discovery); each answers false or falls back instead of throwing.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";

export function isDirectory(path: string): boolean {
  try {
    // No exception for the common missing path (exceptions are costly); the rest (a file on the
    // way, a folder that may not be searched) throws and answers false too.
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path with symlinks resolved, or just made absolute when it does not exist (yet). */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
