// A worker's own say on every job it takes, whatever reached the queue: a job is data someone wrote
// into Redis, so what it may do is bounded by the worker's settings (`fleet.worker` in the worker
// user's settings or the managed policy), never by what the submitter claimed. Checked again on
// the worker because `warden fleet submit` is only one way into Redis.
//
// By default a job may use every mode but bypassPermissions, clone only remote repositories, use
// no model that reads a file of the worker's disk (`replay:FILE`), and carry no allow rule that
// reaches outside its clone. What a rule reaches and what a model reads are the permission
// engine's and the providers' knowledge: the CLI hands them in as judges (fleet/ imports neither).
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { loadSettings } from "../config/settings.js";
import type { FleetWorkerSettings } from "../config/settings-schema.js";
import type { JobSpec } from "./job-spec.js";
import { classifyRepo } from "./repo-source.js";

/** What a worker knows of rules and models, from the layers that own them. */
export interface PolicyJudges {
  /** The file of this machine a model spec reads (`replay:FILE`), or undefined for a network model. */
  modelFile(model: string): string | undefined;
  /**
   * What an allow rule would reach beyond a job's workspace: "ok", "drop" (it only widens reach
   * outside; inside, the job has it anyway) or "refuse" (it names or opens the rest of the machine).
   */
  ruleReach(rule: string): { verdict: "ok" } | { verdict: "drop" | "refuse"; why: string };
}

export interface PolicyDecision {
  /** Why the job may not run here; undefined when it may. */
  refusal?: string;
  /** The spec to run: the job's, with allow rules that only widened reach outside left out. */
  spec: JobSpec;
  /** Notes on what was left out, for the job's events. */
  notes: string[];
}

const DEFAULT_MODES = ["default", "acceptEdits", "plan", "dontAsk", "auto"];

export class WorkerPolicy {
  private readonly modes: readonly string[];
  private readonly repositories: readonly string[];
  private readonly modelFolders: readonly string[];

  constructor(
    private readonly settings: FleetWorkerSettings,
    private readonly judges: PolicyJudges,
    /** The settings file that switches bypass mode off, if one does: it wins over the list. */
    private readonly bypassDisabledBy?: string,
  ) {
    this.modes = settings.permissionModes ?? DEFAULT_MODES;
    this.repositories = (settings.repositories ?? []).map(realFolder);
    this.modelFolders = (settings.modelFiles ?? []).map(realFolder);
  }

  /** One line for the worker's start-up report. */
  summary(): string {
    const modes = this.modes.filter((m) => m !== "bypassPermissions" || !this.bypassDisabledBy);
    const repos = this.repositories.length > 0 ? `remote and ${this.repositories.join(", ")}` : "remote only";
    const models = this.modelFolders.length > 0 ? `under ${this.modelFolders.join(", ")}` : "none";
    return `modes ${modes.join(", ")}; repositories ${repos}; model files ${models}; job rules ${this.settings.jobRules ?? "workspace"}`;
  }

  check(spec: JobSpec): PolicyDecision {
    // Every problem is named, not only the first: whoever wrote the job fixes them all at once.
    const problems: string[] = [];
    const mode = spec.permissionMode ?? "default";
    if (mode === "bypassPermissions" && this.bypassDisabledBy) {
      problems.push(`permissionMode "bypassPermissions": ${this.bypassDisabledBy} switches bypass mode off`);
    } else if (!this.modes.includes(mode)) {
      problems.push(
        `permissionMode ${JSON.stringify(mode)} is not one this worker runs (fleet.worker.permissionModes: ${this.modes.join(", ")})`,
      );
    }
    if (spec.repo !== undefined) {
      const problem = this.repoProblem(spec.repo);
      if (problem) problems.push(`repo ${JSON.stringify(spec.repo)}: ${problem}`);
    }
    if (spec.model !== undefined) {
      const file = this.judges.modelFile(spec.model);
      if (file !== undefined && !this.insideAny(this.modelFolders, file)) {
        problems.push(
          `model ${JSON.stringify(spec.model)} reads a file of the worker's disk, and ${file} is not under a folder of fleet.worker.modelFiles`,
        );
      }
    }
    const kept: string[] = [];
    const notes: string[] = [];
    if ((this.settings.jobRules ?? "workspace") !== "any") {
      for (const rule of spec.allowedTools ?? []) {
        const reach = this.judges.ruleReach(rule);
        if (reach.verdict === "refuse") problems.push(`allowedTools ${JSON.stringify(rule)}: ${reach.why}`);
        else if (reach.verdict === "drop") notes.push(`allowedTools ${JSON.stringify(rule)} left out: ${reach.why}`);
        else kept.push(rule);
      }
    }
    if (problems.length > 0) return { refusal: problems.join("; "), spec, notes: [] };
    if (notes.length === 0) return { spec, notes };
    const { allowedTools: _dropped, ...rest } = spec;
    return { spec: kept.length > 0 ? { ...rest, allowedTools: kept } : rest, notes };
  }

  private repoProblem(repo: string): string | undefined {
    const source = classifyRepo(repo);
    if (source.kind === "invalid") return source.reason;
    if (source.kind === "relative") return "a relative path (a worker's folder is not the submitter's)";
    if (source.kind === "remote") return undefined;
    if (!this.insideAny(this.repositories, source.path)) {
      return "a folder on the worker's disk that fleet.worker.repositories does not list (a worker clones remote repositories, and local ones only from the folders its settings name)";
    }
    return undefined;
  }

  /** Is `path` (symlinks followed, so a link cannot lead out) inside one of `folders`? */
  private insideAny(folders: readonly string[], path: string): boolean {
    if (!isAbsolute(path)) return false;
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      // Not there: nothing to read, but nothing proven either; judged by its spelling.
      real = resolve(path);
    }
    return folders.some((folder) => {
      const rel = relative(folder, real);
      return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
    });
  }
}

function realFolder(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/**
 * The worker's policy from its own settings: the user's file and the managed policy, never a
 * project's (a worker's folder is nobody's project). The last file that sets `fleet.worker` wins.
 */
export function loadWorkerPolicy(judges: PolicyJudges, cwd = process.cwd()): WorkerPolicy {
  const loaded = loadSettings({ cwd, sources: ["user"] });
  let settings: FleetWorkerSettings = {};
  let bypassDisabledBy: string | undefined;
  for (const file of loaded.files) {
    const worker = file.settings.fleet?.worker;
    if (worker) settings = worker;
    if (file.settings.permissions?.disableBypassPermissionsMode === "disable") bypassDisabledBy = file.path;
  }
  return new WorkerPolicy(settings, judges, bypassDisabledBy);
}
