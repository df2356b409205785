// Runs one script with `pwsh` in its own process group (killed whole on timeout or abort), the
// script passed as -EncodedCommand (UTF-16LE base64), so no quoting of ours can change its meaning.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export interface PowerShellRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  interrupted: boolean;
  truncated: boolean;
}

/** Most characters kept of each stream. */
export const MAX_STREAM_CHARS = 30_000;

/** `pwsh` on PATH (WARDEN_PWSH names another program), or undefined when none is there. */
export function findPwsh(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env.WARDEN_PWSH;
  const candidates = explicit
    ? [explicit]
    : (env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, "pwsh"));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; the next one.
    }
  }
  return undefined;
}

export function runPowerShell(
  pwsh: string,
  script: string,
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<PowerShellRun> {
  const encoded = Buffer.from(script, "utf16le").toString("base64");
  return new Promise((resolvePromise, reject) => {
    const child = spawn(pwsh, ["-NoLogo", "-NoProfile", "-NonInteractive", "-EncodedCommand", encoded], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let truncated = false;
    let timedOut = false;
    let interrupted = false;
    const keep = (current: string, chunk: Buffer): string => {
      if (current.length >= MAX_STREAM_CHARS) {
        truncated = true;
        return current;
      }
      const next = current + chunk.toString("utf8");
      if (next.length > MAX_STREAM_CHARS) truncated = true;
      return next.slice(0, MAX_STREAM_CHARS);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      stdout = keep(stdout, chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = keep(stderr, chunk);
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => {
      interrupted = true;
      killGroup();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolvePromise({ stdout, stderr, exitCode: code, timedOut, interrupted, truncated });
    });
    if (signal.aborted) onAbort();
  });
}
