// A job's own copy of its repository on the worker: a clone (a local path or a git URL), so a
// session never works in the submitter's checkout and two jobs of one repository never share
// files. Its changes are kept in Redis at each completed turn, so a worker taking the job over
// starts from the files the transcript's last turn left, and the finished job's patch is its result.
//
// Few git processes per job (each costs tens of ms on a busy machine): the clone, the starting
// commit, and two per snapshot (add, diff) into an index of our own, so the session's own index
// and staging are never touched.
import { chmodSync, copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UnrecoverableError } from "bullmq";
import { runGit } from "../fs/git-run.js";
import { isPermanentCloneFailure } from "./clone-failure.js";
import { classifyRepo, REMOTE_PROTOCOLS } from "./repo-source.js";

/**
 * Git with a fixed identity and no prompt for credentials (a worker has nobody to ask), through
 * fs/git-run.ts: a job's repository is someone else's files, and its hooks, filters and fsmonitor
 * must not run on the worker when it is cloned, snapshotted (`add` runs clean filters) or patched.
 */
async function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return runGit(cwd, args, {
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...env,
      GIT_AUTHOR_NAME: "warden fleet",
      GIT_AUTHOR_EMAIL: "fleet@warden.invalid",
      GIT_COMMITTER_NAME: "warden fleet",
      GIT_COMMITTER_EMAIL: "fleet@warden.invalid",
    },
  });
}

export interface Workspace {
  dir: string;
  /** The commit the job started from: the patch is taken against it, whatever the session commits. */
  base: string;
  /** Our own index file, beside the checkout. */
  index: string;
}

/**
 * Makes `dir` the job's checkout: a clone of `repo`, or an empty repository when there is none.
 * Private to the worker's user (0700): a job's files may hold what its repository holds.
 */
export async function prepareWorkspace(dir: string, repo: string | undefined, scratch: string): Promise<Workspace> {
  rmSync(dir, { recursive: true, force: true });
  if (repo === undefined) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await git(dir, ["init", "--quiet"]);
    await git(dir, ["commit", "--quiet", "--allow-empty", "-m", "empty workspace of a fleet job"]);
  } else {
    const source = classifyRepo(repo);
    if (source.kind === "invalid" || source.kind === "relative") {
      throw new UnrecoverableError(
        `cannot clone ${JSON.stringify(repo)}: ${source.kind === "invalid" ? source.reason : "a relative path"}`,
      );
    }
    try {
      // `--` so the repository is never read as an option; only the transports its kind needs,
      // so a remote's submodules or alternates cannot reach the worker's disk, nor a local
      // path a remote helper.
      await git(process.cwd(), ["clone", "--quiet", "--", repo, dir], {
        GIT_ALLOW_PROTOCOL: source.kind === "local" ? "file" : REMOTE_PROTOCOLS.join(":"),
      });
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim();
      const message = `cannot clone ${repo}: ${stderr || (error instanceof Error ? error.message : String(error))}`;
      // A repository that is not there, or a host nobody knows, fails the job at once; a network
      // cut or a server down for a while is tried again, as BullMQ does with any other failure.
      throw isPermanentCloneFailure(message) ? new UnrecoverableError(message) : new Error(message);
    }
  }
  chmodSync(dir, 0o700);
  const base = (await git(dir, ["rev-parse", "HEAD"])).trim();
  // The fresh checkout's index is exactly the base tree: ours starts as a copy of it.
  const index = join(scratch, "snapshot.index");
  copyFileSync(join(dir, ".git", "index"), index);
  return { dir, base, index };
}

/** The checkout's changes against the base commit, untracked files included, as a binary patch. */
export async function workspacePatch(workspace: Workspace): Promise<string> {
  const env = { GIT_INDEX_FILE: workspace.index };
  await git(workspace.dir, ["add", "-A", "."], env);
  return git(workspace.dir, ["diff", "--cached", "--binary", workspace.base], env);
}

/** Puts a patch taken on another worker back on a fresh clone. */
export async function applyPatch(dir: string, patchFile: string): Promise<void> {
  await git(dir, ["apply", "--binary", "--whitespace=nowarn", patchFile]);
}

/** `git diff --stat`-like lines for a patch (files, lines added and removed), without another git run. */
export function patchStat(patch: string): string {
  const files: Array<{ name: string; added: number; removed: number; binary: boolean }> = [];
  let current: (typeof files)[number] | undefined;
  for (const line of patch.split("\n")) {
    const header = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
    if (header) {
      current = { name: header[2] ?? "", added: 0, removed: 0, binary: false };
      files.push(current);
    } else if (!current || line.startsWith("+++ ") || line.startsWith("--- ")) {
      // File headers, not content.
    } else if (line.startsWith("GIT binary patch")) current.binary = true;
    else if (line.startsWith("+")) current.added++;
    else if (line.startsWith("-")) current.removed++;
  }
  if (files.length === 0) return "";
  const width = Math.max(...files.map((f) => f.name.length));
  const lines = files.map((f) => ` ${f.name.padEnd(width)} | ${f.binary ? "Bin" : `+${f.added} -${f.removed}`}`);
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  lines.push(
    ` ${files.length} file${files.length === 1 ? "" : "s"} changed, ${added} insertions(+), ${removed} deletions(-)`,
  );
  return `${lines.join("\n")}\n`;
}
