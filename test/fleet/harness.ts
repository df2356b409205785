// Runs the built `warden fleet` (dist/, as a user would) against a real redis-server: workers as
// background processes, each with its own work folder, and one-shot commands.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const wardenBin = join(root, "bin/warden.js");

export interface FleetEnv {
  home: string;
  redisUrl: string;
  /** WARDEN_HOME; default: `home` itself (a real user's is `home/.warden`). */
  wardenHome?: string;
}

/** A worker's `fleet.worker` settings (src/fleet/worker-policy.ts). */
export interface WorkerPolicySettings {
  permissionModes?: string[];
  repositories?: string[];
  modelFiles?: string[];
  jobRules?: "workspace" | "any";
}

/**
 * Gives the fleet's home (shared by the tests' submitters and workers) a job key (0600) and the
 * workers' policy in its user settings: what a person sets up with `warden fleet key` and
 * `fleet.worker` before the first job.
 */
export function prepareFleetHome(fleet: FleetEnv, policy: WorkerPolicySettings, extra: Record<string, unknown> = {}) {
  const home = fleet.wardenHome ?? fleet.home;
  mkdirSync(home, { recursive: true });
  const key = join(home, "fleet.key");
  if (!existsSync(key)) writeFileSync(key, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
  writeFileSync(join(home, "settings.json"), JSON.stringify({ ...extra, fleet: { worker: policy } }, null, 2));
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function envFor(fleet: FleetEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k !== "ANTHROPIC_API_KEY" && k !== "OPENAI_API_KEY" && k !== "WARDEN_REDIS_URL") env[k] = v;
  }
  return {
    ...env,
    WARDEN_HOME: fleet.wardenHome ?? fleet.home,
    HOME: fleet.home,
    WARDEN_REDIS_URL: fleet.redisUrl,
    ...extra,
  };
}

export function warden(
  fleet: FleetEnv,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
) {
  const child = spawn(process.execPath, [wardenBin, ...args], {
    env: envFor(fleet, options.env),
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  return new Promise<Run>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface TestWorker {
  process: ChildProcess;
  workDir: string;
  stderr: () => string;
  /** Resolves once it reported taking jobs. */
  ready: Promise<void>;
}

/** A worker of the built CLI; `workDir` undefined: its default work folder (reported once it starts). */
export function startWorker(
  fleet: FleetEnv,
  workDir: string | undefined,
  args: string[] = [],
  env: Record<string, string> = {},
): TestWorker {
  if (workDir !== undefined) mkdirSync(workDir, { recursive: true });
  const child = spawn(
    process.execPath,
    [
      wardenBin,
      "fleet",
      "worker",
      ...(workDir !== undefined ? ["--work-dir", workDir] : []),
      "--lock-duration",
      "2000",
      "--stalled-interval",
      "1000",
      ...args,
    ],
    { env: envFor(fleet, env), stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (/taking jobs[^\n]*\n/.test(stderr)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`worker exited (${code}): ${stderr}`)));
  });
  ready.catch(() => undefined);
  const worker: TestWorker = { process: child, workDir: workDir ?? "", stderr: () => stderr, ready };
  if (workDir === undefined) {
    void ready.then(() => {
      worker.workDir = /taking jobs \([^)]*\) in (\S+)/.exec(stderr)?.[1] ?? "";
    });
  }
  return worker;
}

export async function stopWorker(worker: TestWorker): Promise<void> {
  if (worker.process.exitCode !== null || worker.process.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    worker.process.once("exit", () => resolve());
    worker.process.kill("SIGKILL");
  });
}

/** Polls until `check` returns a value (or throws after `timeoutMs` with `what`). */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A file a job's session wrote in its clone on some worker: `<workDir>/job-<id>-<run>/repo/<name>`. */
export function findInClones(workDirs: readonly string[], jobId: string, name: string): string | undefined {
  for (const dir of workDirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)) {
      if (!entry.startsWith(`job-${jobId}-`)) continue;
      const path = join(dir, entry, "repo", name);
      if (existsSync(path) && readFileSync(path, "utf8").trim() !== "") return path;
    }
  }
  return undefined;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
