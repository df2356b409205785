// Locating and running ripgrep for Grep and Glob. The binary comes with the @vscode/ripgrep
// package (so `npm ci` is all a fresh machine needs); `rg` on PATH (e.g. Debian's ripgrep) is the
// fallback. When neither exists the tools say how to install it instead of failing obscurely.
import { spawn } from "node:child_process";
import * as path from "node:path";
import { isExecutable } from "../../fs/path-kind.js";

let resolvedPath: Promise<string> | undefined;

export class RipgrepMissingError extends Error {
  constructor() {
    super(
      "ripgrep (rg) is not available, so Grep and Glob cannot run. Install the project's dependencies (./scripts/setup.sh or npm ci, which brings @vscode/ripgrep), or install ripgrep (Debian/Ubuntu: apt-get install ripgrep).",
    );
  }
}

function rgOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, "rg");
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function locateRipgrep(): Promise<string> {
  if (process.env.WARDEN_RG_PATH) {
    if (isExecutable(process.env.WARDEN_RG_PATH)) return process.env.WARDEN_RG_PATH;
    throw new RipgrepMissingError();
  }
  try {
    const { rgPath } = await import("@vscode/ripgrep");
    if (isExecutable(rgPath)) return rgPath;
  } catch {
    // Package missing or its binary not installed: try PATH.
  }
  const fallback = rgOnPath();
  if (fallback) return fallback;
  throw new RipgrepMissingError();
}

/** The rg binary, found once per process. WARDEN_RG_PATH overrides the search (and tests use it). */
export function ripgrepPath(): Promise<string> {
  if (process.env.WARDEN_RG_PATH) return locateRipgrep();
  if (!resolvedPath) {
    resolvedPath = locateRipgrep();
    resolvedPath.catch(() => {
      resolvedPath = undefined;
    });
  }
  return resolvedPath;
}

export interface RipgrepRun {
  lines: string[];
  /** True when reading stopped early at maxLines (rg was stopped). */
  stoppedEarly: boolean;
}

/**
 * Runs rg and collects its output lines. Exit 1 means "no matches" and is not an error; exit 2
 * with output means some files could not be read (the rest is still valid). With maxLines, rg is
 * stopped as soon as enough lines have arrived.
 */
export async function runRipgrep(
  args: string[],
  options: { cwd: string; signal: AbortSignal; maxLines?: number },
): Promise<RipgrepRun> {
  const rg = await ripgrepPath();
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd: options.cwd, signal: options.signal, stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let partial = "";
    let stderr = "";
    let stoppedEarly = false;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stoppedEarly) return;
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (options.maxLines !== undefined && lines.length >= options.maxLines) {
          stoppedEarly = true;
          child.kill("SIGTERM");
          return;
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on("error", (error) => reject(error));
    child.on("close", (code) => {
      if (!stoppedEarly && partial !== "") lines.push(partial);
      if (stoppedEarly || code === 0 || code === 1) return resolve({ lines, stoppedEarly });
      if (code === 2 && lines.length > 0) return resolve({ lines, stoppedEarly });
      reject(new Error(`ripgrep failed (exit ${code}): ${stderr.trim() || "no message"}`));
    });
  });
}

/** Folders of version-control systems: never searched, their contents are not the project. */
export const VCS_DIRECTORY_GLOB = "!{.git,.svn,.hg,.bzr,.jj,.sl}";
