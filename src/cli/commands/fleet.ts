// `warden fleet ...`: sessions as jobs on a BullMQ queue in Redis, run by workers on any number of
// machines. Loaded only for `warden fleet` (main.ts), so nothing of BullMQ or ioredis reaches a
// local session.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { FleetClient } from "../../fleet/client.js";
import { ensureJobKeyFile, loadJobKey } from "../../fleet/job-key.js";
import { type JobSpec, parseJobLines, parseJobSpec } from "../../fleet/job-spec.js";
import { TERMINAL_STATES } from "../../fleet/keys.js";
import {
  displayUrl,
  FleetConnectionError,
  FleetNoSuchJobError,
  FleetUsageError,
  redisUrlFrom,
} from "../../fleet/redis.js";
import { classifyRepo } from "../../fleet/repo-source.js";
import { checkSubmitPolicy } from "../../fleet/submit-policy.js";
import { defaultWorkRoot, newWorkerId, startWorker } from "../../fleet/worker.js";
import { loadWorkerPolicy } from "../../fleet/worker-policy.js";
import { runGit } from "../../fs/git-run.js";
import { parseRule, protectedPathReason } from "../../permissions/index.js";
import { untilStopSignal } from "../../process/until-stop-signal.js";
import { providerSpecProblem } from "../../providers/resolve.js";
import { fleetPolicyJudges } from "../fleet-policy-judges.js";
import { jobSessionArgs } from "../session/spec-of-job.js";
import { resultText, statusLine } from "./fleet-job-text.js";
import { parseSubmitArgs } from "./fleet-submit-args.js";

const out = (text: string) => void process.stdout.write(text);
const err = (text: string) => void process.stderr.write(text);
const report = (line: string) => err(`${line}\n`);

const USAGE = `Usage:
  warden fleet submit [PROMPT | --prompt TEXT] [--repo PATH_OR_URL] [--model M] [--allowed-tools RULES...]
                      [--disallowed-tools RULES...] [--permission-mode MODE] [--max-turns N]
                      [--max-budget-usd USD] [--json-schema FILE_OR_JSON]
  warden fleet submit FILE | -        one job per line: {"prompt", "repo", "model", "allowedTools",
                                      "disallowedTools", "permissionMode", "maxTurns", "maxBudgetUsd",
                                      "outputFormat", "jsonSchema"}
  warden fleet worker [--concurrency N] [--provider-limit PROVIDER=N...] [--lock-duration MS]
                      [--stalled-interval MS] [--work-dir DIR]
  warden fleet status [ID] [--json]
  warden fleet logs ID [--follow]
  warden fleet cancel ID
  warden fleet results [ID] [--json]
  warden fleet results ID --patch     the job's changes alone, as a patch for git apply
  warden fleet key                    make the job key (0600) if there is none; print its path
  warden fleet dashboard [--port N]   the queue in a browser (read-only), each job linked to its
                                      session; prints the URL (with its token) to open on this machine

Every command takes --redis-url-file FILE (a 0600 file holding the URL; or WARDEN_REDIS_URL_FILE),
else WARDEN_REDIS_URL, else redis://127.0.0.1:6379. --redis URL works too, but every user of the
machine sees it in ps: a worker warns about it.
A rule list (--allowed-tools Read Edit) takes every word up to the next flag; a prompt after it
at the end of the line is the prompt. Jobs are signed with the fleet's job key (WARDEN_FLEET_KEY,
WARDEN_FLEET_KEY_FILE, else ~/.warden/fleet.key); workers run only jobs signed with theirs.
submit prints the job ids, one a line. A job's state is waiting, active, completed, failed or
cancelled; a completed job whose session had calls refused says how many. bypassPermissions is
refused unless your own settings already use it, and a worker checks every job against its own
settings (fleet.worker) whatever the submitter's say.
`;

const COMMON = { redis: { type: "string" }, "redis-url-file": { type: "string" } } as const;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  // `fleet SUB --help` answers with the usage and does nothing else (`key --help` used to make a
  // key); a word after `--` is a prompt, not a flag.
  const flags = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (sub !== undefined && (flags.includes("--help") || flags.includes("-h"))) {
    out(USAGE);
    return 0;
  }
  try {
    switch (sub) {
      case "submit":
        return await submit(rest);
      case "worker":
        return await worker(rest);
      case "status":
        return await status(rest);
      case "logs":
        return await logs(rest);
      case "cancel":
        return await cancel(rest);
      case "results":
        return await results(rest);
      case "key":
        return key();
      case "dashboard":
        return await dashboard(rest);
      case "help":
      case "--help":
      case "-h":
        out(USAGE);
        return 0;
      case undefined:
        err(USAGE);
        return 2;
      default:
        err(`warden fleet: unknown subcommand ${JSON.stringify(sub)}\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    err(`warden fleet: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof FleetConnectionError) return 1;
    const usage =
      (error instanceof FleetUsageError && !(error instanceof FleetNoSuchJobError)) ||
      (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS"));
    return usage ? 2 : 1;
  }
}

interface RedisFlags {
  redis?: string | undefined;
  "redis-url-file"?: string | undefined;
}

async function withClient<T>(flags: RedisFlags, work: (client: FleetClient) => Promise<T>): Promise<T> {
  const client = new FleetClient({ url: redisUrlFrom(flags.redis, process.env, flags["redis-url-file"]), report });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

async function submit(argv: string[]): Promise<number> {
  const { values, positionals, allowedTools, disallowedTools } = parseSubmitArgs(argv);
  if (positionals.length > 1) {
    throw new FleetUsageError(
      `submit takes one prompt or one file, and got ${positionals.length} words (${positionals.map((p) => JSON.stringify(p)).join(" ")}): quote the prompt`,
    );
  }
  const [positional] = positionals;
  let specs: JobSpec[];
  if (values.prompt === undefined && positional !== undefined && (positional === "-" || existsSync(positional))) {
    const jobFlags = Object.keys(values).filter((name) => name !== "redis" && name !== "redis-url-file");
    if (allowedTools) jobFlags.push("allowed-tools");
    if (disallowedTools) jobFlags.push("disallowed-tools");
    if (jobFlags.length > 0) {
      throw new FleetUsageError(
        `--${jobFlags.join(", --")} would be ignored: each line of a jobs file carries its own options`,
      );
    }
    const text = positional === "-" ? readFileSync(0, "utf8") : readFileSync(positional, "utf8");
    specs = parseJobLines(text, positional === "-" ? "stdin" : positional, providerSpecProblem, ruleProblem).map(
      withLocalRepo,
    );
  } else {
    const prompt = values.prompt ?? positional;
    if (prompt === undefined) throw new FleetUsageError("submit needs a prompt, a file of jobs, or - for stdin");
    const spec: Record<string, unknown> = { prompt };
    if (values.repo !== undefined) spec.repo = values.repo;
    if (values.model !== undefined) spec.model = values.model;
    if (allowedTools) spec.allowedTools = allowedTools;
    if (disallowedTools) spec.disallowedTools = disallowedTools;
    if (values["permission-mode"] !== undefined) spec.permissionMode = values["permission-mode"];
    if (values["max-turns"] !== undefined) spec.maxTurns = numberFlag("--max-turns", values["max-turns"]);
    if (values["max-budget-usd"] !== undefined)
      spec.maxBudgetUsd = numberFlag("--max-budget-usd", values["max-budget-usd"]);
    if (values["json-schema"] !== undefined) spec.jsonSchema = jsonSchemaFlag(values["json-schema"]);
    specs = [withLocalRepo(parseJobSpec(spec, "submit", providerSpecProblem, ruleProblem))];
  }
  checkSubmitPolicy(specs, process.cwd());
  await checkLocalRepos(specs);
  // Before connecting: a submitter without the key learns it at once.
  loadJobKey();
  const ids = await withClient(values, (client) => client.submit(specs));
  out(ids.map((id) => `${id}\n`).join(""));
  return 0;
}

/**
 * A worker clones a local repository, so it must be one, named by its top folder: a plain folder
 * or a subfolder used to be queued and then failed on the worker at each retry (`cannot clone`).
 * And the job starts from the last commit: what is changed or new in the submitter's folder is
 * not there, which is said (the job is still submitted), since a user who just edited a file
 * would otherwise read the job's result as if it had seen it.
 */
async function checkLocalRepos(specs: readonly JobSpec[]): Promise<void> {
  const folders = new Set(
    specs.map((spec) => spec.repo).filter((repo): repo is string => repo !== undefined && isAbsolute(repo)),
  );
  for (const folder of folders) {
    const prefix = await runGit(folder, ["rev-parse", "--show-prefix"]).catch(() => undefined);
    if (prefix === undefined)
      throw new FleetUsageError(`repo ${folder}: not a git repository (a worker clones it: git init and commit first)`);
    if (prefix.trim() !== "")
      throw new FleetUsageError(
        `repo ${folder}: a folder inside a repository; name the repository's top folder (a worker clones it whole)`,
      );
    const status = await runGit(folder, ["status", "--porcelain"]).catch(() => "");
    if (status.trim() === "") continue;
    const count = status.trimEnd().split("\n").length;
    err(
      `warden fleet: ${folder} has ${count} uncommitted change(s); a worker clones its last commit, so the job does not see them (commit first to include them)\n`,
    );
  }
}

/** Why a rule text does not parse, as the session that runs the job would read it. */
function ruleProblem(rule: string): string | undefined {
  const parsed = parseRule(rule);
  return parsed.ok ? undefined : parsed.error;
}

/** A local repository path is made absolute here: the worker's working directory is not ours. */
function withLocalRepo(spec: JobSpec): JobSpec {
  if (spec.repo === undefined) return spec;
  const source = classifyRepo(spec.repo);
  if (source.kind === "invalid") throw new FleetUsageError(`repo ${spec.repo}: ${source.reason}`);
  // URLs (file:// too) go as written.
  if (source.kind === "remote" || source.path !== spec.repo) return spec;
  const path = resolve(spec.repo);
  if (!existsSync(path)) throw new FleetUsageError(`repo ${spec.repo}: no such directory`);
  return { ...spec, repo: path };
}

function numberFlag(name: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value)) throw new FleetUsageError(`${name} needs a number (got ${raw})`);
  return value;
}

function jsonSchemaFlag(raw: string): Record<string, unknown> {
  const text = raw.trimStart().startsWith("{") ? raw : readFileSync(raw, "utf8");
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new FleetUsageError("--json-schema needs a JSON object (inline or a file holding one)");
}

async function worker(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...COMMON,
      concurrency: { type: "string", default: "1" },
      "provider-limit": { type: "string", multiple: true },
      "lock-duration": { type: "string", default: "30000" },
      "stalled-interval": { type: "string", default: "30000" },
      "work-dir": { type: "string" },
    },
  });
  // Whatever the command line held (a --redis URL with its password), `ps` shows only this now.
  process.title = "warden fleet worker";
  const url = redisUrlFrom(values.redis, process.env, values["redis-url-file"]);
  if (values.redis !== undefined && new URL(url).password) {
    report(
      `warden fleet worker: --redis ${displayUrl(url)} puts the password on the command line, where other users of this machine can read it (ps): use WARDEN_REDIS_URL or --redis-url-file FILE (mode 0600)`,
    );
  }
  const concurrency = numberFlag("--concurrency", values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new FleetUsageError("--concurrency must be at least 1");
  const providerLimits: Record<string, number> = {};
  for (const item of values["provider-limit"] ?? []) {
    const match = /^([A-Za-z0-9_-]+)=(\d+)$/.exec(item);
    if (!match) throw new FleetUsageError(`--provider-limit takes PROVIDER=N (got ${item})`);
    providerLimits[match[1] as string] = Number(match[2]);
  }
  const script = process.argv[1];
  if (!script) throw new Error("cannot tell which warden to run the sessions with");
  const id = newWorkerId();
  const workRoot = values["work-dir"] ? resolve(values["work-dir"]) : defaultWorkRoot(id);
  // A clone inside a protected folder (.warden/, .git/...) could never be changed by its session:
  // every Edit, Write and redirect there asks, and a job has nobody to ask.
  const inProtected = protectedPathReason(join(workRoot, "job", "repo", "file"));
  if (inProtected) {
    throw new FleetUsageError(
      `the work folder ${workRoot} is inside a protected folder (${inProtected}): its sessions could change no file there; pass --work-dir elsewhere`,
    );
  }
  const running = await startWorker(
    {
      url,
      concurrency,
      command: [process.execPath, script],
      sessionArgs: jobSessionArgs,
      lockDuration: numberFlag("--lock-duration", values["lock-duration"]),
      stalledInterval: numberFlag("--stalled-interval", values["stalled-interval"]),
      providerLimits,
      workRoot,
      policy: loadWorkerPolicy(fleetPolicyJudges()),
      jobKey: loadJobKey(),
      report,
    },
    id,
  );
  // First SIGINT/SIGTERM: take no more jobs, let the running ones finish. Second: leave now (the
  // sessions die with us; their jobs are resumed elsewhere once their locks expire).
  await new Promise<void>((resolveStop) => {
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(130);
      stopping = true;
      report(`warden fleet worker ${running.id}: finishing running jobs (again to leave at once)`);
      void running.close().then(resolveStop);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  return 0;
}

async function status(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, json: { type: "boolean", default: false }, patch: { type: "boolean", default: false } },
  });
  if (values.patch && (positionals.length !== 1 || values.json))
    throw new FleetUsageError("results --patch takes one job id (and no --json)");
  return withClient(values, async (client) => {
    const ids = positionals.length > 0 ? positionals : await client.jobIds();
    // An empty answer read as a hung or broken command; --json stays empty for scripts.
    if (ids.length === 0 && !values.json) err("warden fleet: no jobs (warden fleet submit adds one)\n");
    let missing = 0;
    for (const id of ids) {
      const found = await client.status(id);
      if (!found) {
        err(`warden fleet: no job ${id}\n`);
        missing++;
        continue;
      }
      out(values.json ? `${JSON.stringify(found)}\n` : statusLine(found));
    }
    return missing > 0 ? 1 : 0;
  });
}

async function logs(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, follow: { type: "boolean", short: "f", default: false } },
  });
  const [id] = positionals;
  if (id === undefined || positionals.length > 1) throw new FleetUsageError("logs takes one job id");
  await withClient(values, (client) => client.logs(id, values.follow, (line) => out(`${line}\n`)));
  return 0;
}

async function cancel(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON } });
  if (positionals.length === 0) throw new FleetUsageError("cancel takes one or more job ids");
  return withClient(values, async (client) => {
    let code = 0;
    for (const id of positionals) {
      const after = await client.cancel(id);
      out(`${id}  ${after.state}\n`);
      if (after.state === "cancelled") continue;
      code = 1;
      // The exit code alone left a user guessing whether the cancel was lost or came too late.
      err(
        TERMINAL_STATES.has(after.state)
          ? `warden fleet: job ${id} had ended (${after.state}) before it could be cancelled\n`
          : `warden fleet: job ${id} is still ${after.state}: no worker confirmed the cancel yet (the job is marked; the worker running it stops it when it sees that)\n`,
      );
    }
    return code;
  });
}

async function results(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, json: { type: "boolean", default: false }, patch: { type: "boolean", default: false } },
  });
  if (values.patch && (positionals.length !== 1 || values.json))
    throw new FleetUsageError("results --patch takes one job id (and no --json)");
  return withClient(values, async (client) => {
    const ids = positionals.length > 0 ? positionals : await client.jobIds();
    if (ids.length === 0 && !values.json) err("warden fleet: no jobs (warden fleet submit adds one)\n");
    // As status does: a job that is not there is an error a script can see in the exit code.
    let missing = 0;
    for (const id of ids) {
      const found = await client.result(id);
      if (!found) {
        err(`warden fleet: no job ${id}\n`);
        missing++;
        continue;
      }
      // --patch: the bytes git apply takes, nothing around them (no changes: nothing at all).
      if (values.patch) out(found.patch ?? "");
      else out(values.json ? `${JSON.stringify(found)}\n` : resultText(found));
    }
    return missing > 0 ? 1 : 0;
  });
}

/** `warden fleet key`: the job key's file, made (random, 0600) when there is none. */
async function dashboard(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...COMMON, port: { type: "string" } } });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new FleetUsageError(`--port needs a port number, got ${values.port}`);
  // express and @bull-board load only here: the other fleet commands never pay for them.
  const { startDashboard } = await import("../../fleet/dashboard.js");
  return withClient(values, async (client) => {
    await client.call(() => client.redis.ping());
    const stopped = untilStopSignal();
    const board = await startDashboard({ redis: client.redis, port });
    out(`warden fleet dashboard: open ${board.url}\n`);
    const release = await stopped;
    await board.close();
    release();
    return 0;
  });
}

function key(): number {
  const made = ensureJobKeyFile();
  out(`${made.path}\n`);
  report(
    made.created
      ? `warden fleet: made a new job key at ${made.path} (mode 0600); copy it to every worker and submitter (WARDEN_FLEET_KEY_FILE names another place)`
      : `warden fleet: the job key at ${made.path} is there already`,
  );
  return 0;
}
