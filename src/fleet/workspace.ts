// A job's own copy of its repository on the worker: a clone (a local path or a git URL), so a
// session never works in the submitter's checkout and two jobs of one repository never share
// files. Its changes are kept in Redis at each completed turn, so a worker taking the job over
// starts from the files the transcript's last turn left, and the finished job's patch is its result.
import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Git with a fixed identity and no prompt for credentials (a worker has nobody to ask). */
async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await run("git", args, {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      ...env,
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "warden fleet",
      GIT_AUTHOR_EMAIL: "fleet@warden.invalid",
      GIT_COMMITTER_NAME: "warden fleet",
      GIT_COMMITTER_EMAIL: "fleet@warden.invalid",
    },
  });
  return stdout;
}

/** Makes `dir` the job's checkout: a clone of `repo`, or an empty repository when there is none. */
export async function prepareWorkspace(dir: string, repo: string | undefined): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  if (repo === undefined) {
    mkdirSync(dir, { recursive: true });
    await git(dir, ["init", "--quiet"]);
    await git(dir, ["commit", "--quiet", "--allow-empty", "-m", "empty workspace of a fleet job"]);
    return;
  }
  try {
    await git(process.cwd(), ["clone", "--quiet", "--no-hardlinks", repo, dir]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`cannot clone ${repo}: ${stderr || (error instanceof Error ? error.message : String(error))}`);
  }
}

/**
 * The checkout's changes against its first commit, untracked files included, as a binary patch.
 * A separate index file keeps this from touching the index the session itself may be using.
 */
export async function workspacePatch(dir: string, scratch: string): Promise<string> {
  const env = { GIT_INDEX_FILE: join(scratch, "snapshot.index") };
  const base = await baseCommit(dir);
  await git(dir, ["read-tree", base], env);
  await git(dir, ["add", "-A", "."], env);
  return git(dir, ["diff", "--cached", "--binary", base], env);
}

/** `git diff --stat` of what the last workspacePatch() saw (its index is still in place), for `results`. */
export async function workspaceStat(dir: string, scratch: string): Promise<string> {
  const env = { GIT_INDEX_FILE: join(scratch, "snapshot.index") };
  return git(dir, ["diff", "--cached", "--stat", await baseCommit(dir)], env);
}

/** Puts a patch taken on another worker back on a fresh clone. */
export async function applyPatch(dir: string, patchFile: string): Promise<void> {
  await git(dir, ["apply", "--binary", "--whitespace=nowarn", patchFile]);
}

/** The commit the job started from: recorded on the clone as a tag so later commits don't move it. */
async function baseCommit(dir: string): Promise<string> {
  try {
    return (await git(dir, ["rev-parse", "--verify", "--quiet", "refs/tags/warden-fleet-base"])).trim();
  } catch {
    const head = (await git(dir, ["rev-parse", "HEAD"])).trim();
    await git(dir, ["tag", "warden-fleet-base", head]);
    return head;
  }
}

/** Records the starting commit now, before the session can commit anything. */
export async function markBase(dir: string): Promise<void> {
  await baseCommit(dir);
}
