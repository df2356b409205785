// CLAUDE_ENV_FILE: a SessionStart hook may write `export NAME=value` lines to the file this
// variable names, and the variables it sets reach every Bash command of the session afterwards.
// The file is read by a real shell (sourced with `set -a`), so quoting, `$OTHER` references and
// conditionals mean what they mean in a shell; what changed in the environment is kept.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface HookEnvFile {
  path: string;
  /** The variables the file sets (added or changed), then the file is deleted. */
  collect(env: NodeJS.ProcessEnv): Promise<Record<string, string>>;
}

export function createHookEnvFile(): HookEnvFile {
  const dir = mkdtempSync(join(tmpdir(), "warden-hook-env-"));
  const path = join(dir, "env.sh");
  writeFileSync(path, "", { mode: 0o600 });
  return {
    path,
    async collect(env) {
      try {
        return await sourcedVariables(path, env);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

// `env -0` before and after sourcing, in the same shell, so only what the file did differs.
const SCRIPT = `env -0; printf '\\0'; set -a; . "$1" >/dev/null 2>&1; env -0`;

function sourcedVariables(path: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("/bin/bash", ["-c", SCRIPT, "warden-env", path], { env, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\0\0");
      if (split < 0) return resolvePromise({});
      const before = parseEnv(text.slice(0, split + 1));
      const after = parseEnv(text.slice(split + 2));
      const changed: Record<string, string> = {};
      for (const [name, value] of Object.entries(after)) {
        if (name === "_" || name === "SHLVL") continue;
        if (before[name] !== value) changed[name] = value;
      }
      resolvePromise(changed);
    });
  });
}

function parseEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const entry of text.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) vars[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return vars;
}
