// Runs the built `warden fleet` (dist/, as a user would) against a real redis-server: workers as
// background processes, each with its own work folder, and one-shot commands.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { startTestRedis, type TestRedis } from "../helpers/redis-server.js";

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
      // Short, so that a killed worker's job is taken over within seconds; not shorter, because a
      // worker starved of the CPU (the process tiers run side by side) for half of it loses a job it
      // still runs to the stalled-job check, and the job runs twice.
      "--lock-duration",
      "4000",
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

/** A job's `warden fleet status --json` line. */
export interface StatusLine {
  id: string;
  state: string;
  runs: number;
  worker?: string;
  error?: string;
  refusedCalls?: number;
}

const ENDED = new Set(["completed", "failed", "cancelled"]);

/** The set-up every fleet suite shares (startTestFleet); each suite starts the workers it needs. */
export interface TestFleet {
  redis: TestRedis;
  /** A connection of the test's own, to look into Redis; reconnects by itself after a restart. */
  client: Redis;
  fleet: FleetEnv;
  /** The suite's temporary folder: replayed scripts, the test repository, the workers' folders. */
  dir: string;
  /** A git repository with one commit (`dir/repo`), for jobs given `--repo`. */
  repo: string;
  workers: TestWorker[];
  /** Starts a worker (in `dir/worker-N` unless `workDir` is given; `null`: its default folder) and waits until it takes jobs. */
  addWorker(args?: string[], options?: { workDir?: string | null; env?: Record<string, string> }): Promise<TestWorker>;
  /** Writes a replay script of `turns` into `dir` and returns its path. */
  script(name: string, turns: object[]): string;
  /** `warden fleet submit ARGS`, which must succeed; returns its stdout (the ids). */
  submit(args: string[], env?: Record<string, string>): Promise<string>;
  /** `warden fleet status ID... --json`, one line per job. */
  statuses(ids: readonly string[]): Promise<StatusLine[]>;
  status(id: string): Promise<StatusLine>;
  /** Waits until every job ended (completed, failed, cancelled), asking for all of them at once. */
  settledAll(ids: readonly string[], timeoutMs?: number): Promise<StatusLine[]>;
  settled(id: string, timeoutMs?: number): Promise<StatusLine>;
  stop(): Promise<void>;
}

export interface TestFleetOptions {
  /** The temporary folder's name prefix. */
  name: string;
  /** The workers' `fleet.worker` settings; default: repositories and model files in `dir`. */
  policy?: (dir: string) => WorkerPolicySettings;
  /** WARDEN_HOME as a real user's, `home/.warden` (default: `home` itself). */
  dotWarden?: boolean;
  /** The test repository's one file. */
  repoFile?: { name: string; content: string };
  /** Environment of every submit and worker (the jobs' retention, test-only intervals). */
  env?: Record<string, string>;
}

/**
 * A real redis-server, a fleet home with its job key and worker policy, a test repository and a
 * Redis connection: what every fleet suite sets up before its first worker.
 */
export async function startTestFleet(binary: string, options: TestFleetOptions): Promise<TestFleet> {
  const redis = await startTestRedis(binary);
  const client = new Redis(redis.url, { maxRetriesPerRequest: null });
  // A suite may stop Redis on purpose; the connection reconnects on its own.
  client.on("error", () => undefined);
  const dir = mkdtempSync(join(tmpdir(), `warden-${options.name}-`));
  const home = join(dir, "home");
  const fleet: FleetEnv = {
    home,
    redisUrl: redis.url,
    ...(options.dotWarden ? { wardenHome: join(home, ".warden") } : {}),
  };
  prepareFleetHome(fleet, options.policy?.(dir) ?? { repositories: [dir], modelFiles: [dir] });
  const repo = join(dir, "repo");
  const file = options.repoFile ?? { name: "base.txt", content: "base\n" };
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, file.name), file.content);
  execFileSync("sh", ["-c", "git init -q && git add . && git -c user.email=t@t -c user.name=t commit -qm base"], {
    cwd: repo,
  });
  const env = options.env ?? {};
  const workers: TestWorker[] = [];
  const statuses = async (ids: readonly string[]) => {
    const run = await warden(fleet, ["fleet", "status", ...ids, "--json"], { env });
    if (run.code !== 0) throw new Error(`warden fleet status failed (${run.code}): ${run.stderr}`);
    return jsonLines(run.stdout) as unknown as StatusLine[];
  };
  const settledAll = (ids: readonly string[], timeoutMs = 120_000) =>
    waitFor(
      `jobs ${ids.join(", ")} to end`,
      async () => {
        const now = await statuses(ids);
        return now.length === ids.length && now.every((s) => ENDED.has(s.state)) ? now : undefined;
      },
      timeoutMs,
    );
  return {
    redis,
    client,
    fleet,
    dir,
    repo,
    workers,
    async addWorker(args = [], { workDir, env: workerEnv = {} } = {}) {
      const folder = workDir === null ? undefined : (workDir ?? join(dir, `worker-${workers.length + 1}`));
      const worker = startWorker(fleet, folder, args, { ...env, ...workerEnv });
      workers.push(worker);
      await worker.ready;
      return worker;
    },
    script(name, turns) {
      const path = join(dir, name);
      writeFileSync(path, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
      return path;
    },
    async submit(args, submitEnv = {}) {
      const run = await warden(fleet, ["fleet", "submit", ...args], { env: { ...env, ...submitEnv } });
      if (run.code !== 0) throw new Error(`warden fleet submit failed (${run.code}): ${run.stderr}`);
      return run.stdout.trim();
    },
    statuses,
    status: async (id) => (await statuses([id]))[0] as StatusLine,
    settledAll,
    settled: async (id, timeoutMs) => (await settledAll([id], timeoutMs))[0] as StatusLine,
    async stop() {
      await Promise.all(workers.map(stopWorker));
      client.disconnect();
      await redis.stop();
    },
  };
}
