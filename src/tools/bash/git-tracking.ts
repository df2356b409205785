// After a Bash call that ran a git operation (commit, push, checkout/switch, branch, merge,
// rebase...), the model is told what changed — branch, short commit ids, files — so it does not
// run `git status` and `git log` again to find out. Computed by comparing the repository's state
// before and after the command with Warden's own hardened git (fs/git-run.ts: no hook, filter or
// pager of the repository runs), and only when the command's analysis shows such a subcommand.
import { runGit } from "../../fs/git-run.js";
import type { CommandFacts } from "../../shell/analysis/index.js";

/** git subcommands that move HEAD, branches, tags or remote-tracking refs. */
const TRACKED_SUBCOMMANDS = new Set([
  "commit",
  "push",
  "pull",
  "fetch",
  "checkout",
  "switch",
  "branch",
  "merge",
  "rebase",
  "cherry-pick",
  "revert",
  "reset",
  "am",
  "tag",
  "stash",
]);
/** New commits listed by subject at most. */
const MAX_LISTED_COMMITS = 5;

export function tracksGitOperation(facts: CommandFacts | undefined): boolean {
  return facts?.gitSubcommands.some((sub) => TRACKED_SUBCOMMANDS.has(sub)) ?? false;
}

export interface GitState {
  /** The commit HEAD names, undefined before the first commit. */
  head: string | undefined;
  /** The branch checked out, undefined when HEAD is detached. */
  branch: string | undefined;
  /** Every branch, remote-tracking branch and tag, by full ref name, and its object. */
  refs: Map<string, string>;
}

/** The repository's state at cwd, or undefined when cwd is not inside a repository git can read. */
export async function readGitState(cwd: string): Promise<GitState | undefined> {
  try {
    const [status, refList] = await Promise.all([
      runGit(cwd, ["status", "--porcelain=v2", "--branch", "--untracked-files=no", "--ignore-submodules"]),
      runGit(cwd, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/remotes", "refs/tags"]),
    ]);
    let head: string | undefined;
    let branch: string | undefined;
    for (const line of status.split("\n")) {
      if (line.startsWith("# branch.oid ")) {
        const oid = line.slice("# branch.oid ".length).trim();
        head = oid === "(initial)" ? undefined : oid;
      } else if (line.startsWith("# branch.head ")) {
        const name = line.slice("# branch.head ".length).trim();
        branch = name === "(detached)" ? undefined : name;
      }
    }
    const refs = new Map<string, string>();
    for (const line of refList.split("\n")) {
      const [name, oid] = line.trim().split(" ");
      if (name && oid && !name.endsWith("/HEAD")) refs.set(name, oid);
    }
    return { head, branch, refs };
  } catch {
    return undefined;
  }
}

const short = (oid: string | undefined) => (oid ? oid.slice(0, 7) : "(none)");

function refLabel(name: string): string {
  return name.replace(/^refs\/(heads|remotes|tags)\//, "");
}

async function isAncestor(cwd: string, older: string, newer: string): Promise<boolean> {
  try {
    await runGit(cwd, ["merge-base", "--is-ancestor", older, newer]);
    return true;
  } catch {
    return false;
  }
}

/** What HEAD gained: its new commits by subject and the files they changed, in a few lines. */
async function newCommitsSummary(cwd: string, before: string | undefined, after: string): Promise<string[]> {
  const range = before ? `${before}..${after}` : after;
  const log = await runGit(cwd, ["log", `--max-count=${MAX_LISTED_COMMITS + 1}`, "--format=%h %s", range]);
  const commits = log.split("\n").filter(Boolean);
  const count = before
    ? Number((await runGit(cwd, ["rev-list", "--count", range])).trim()) || commits.length
    : commits.length;
  const stat = before
    ? (await runGit(cwd, ["diff", "--shortstat", before, after])).trim()
    : (await runGit(cwd, ["show", "--shortstat", "--format=", after])).trim();
  const lines = commits.slice(0, MAX_LISTED_COMMITS).map((line) => `  ${line}`);
  if (count > MAX_LISTED_COMMITS) lines.push(`  … and ${count - MAX_LISTED_COMMITS} more`);
  return [`${count === 1 ? "1 new commit" : `${count} new commits`}${stat ? ` (${stat})` : ""}:`, ...lines];
}

/**
 * The lines telling what the command changed in the repository, or none when nothing did (or the
 * state cannot be read). Never throws: tracking is a courtesy to the model, not part of the call.
 */
export async function describeGitChanges(cwd: string, before: GitState): Promise<string[]> {
  const after = await readGitState(cwd);
  if (!after) return [];
  const lines: string[] = [];
  try {
    if (after.branch !== before.branch) {
      lines.push(
        after.branch
          ? `Now on branch ${after.branch} at ${short(after.head)}${before.branch ? ` (was ${before.branch})` : ""}.`
          : `HEAD is detached at ${short(after.head)}${before.branch ? ` (was on ${before.branch})` : ""}.`,
      );
    }
    if (after.head && after.head !== before.head) {
      const where = after.branch ? `${after.branch} is at` : "HEAD is at";
      if (!before.head || (await isAncestor(cwd, before.head, after.head))) {
        lines.push(
          `${where} ${short(after.head)}; ${(await newCommitsSummary(cwd, before.head, after.head)).join("\n")}`,
        );
      } else if (after.branch === before.branch) {
        lines.push(`${where} ${short(after.head)} (moved from ${short(before.head)}, not a descendant of it).`);
      }
    }
    for (const [name, oid] of after.refs) {
      const was = before.refs.get(name);
      if (was === oid) continue;
      const label = refLabel(name);
      if (name.startsWith("refs/heads/")) {
        if (label === after.branch && label === before.branch) continue; // told above with HEAD
        lines.push(
          was ? `Branch ${label} moved ${short(was)} → ${short(oid)}.` : `Created branch ${label} at ${short(oid)}.`,
        );
      } else if (name.startsWith("refs/tags/")) {
        lines.push(was ? `Tag ${label} moved to ${short(oid)}.` : `Created tag ${label} at ${short(oid)}.`);
      } else {
        lines.push(
          was
            ? `Remote-tracking ${label}: ${short(was)} → ${short(oid)}.`
            : `Remote-tracking ${label} now at ${short(oid)}.`,
        );
      }
    }
    for (const name of before.refs.keys()) {
      if (!after.refs.has(name) && !name.startsWith("refs/remotes/")) {
        lines.push(`Deleted ${name.startsWith("refs/tags/") ? "tag" : "branch"} ${refLabel(name)}.`);
      }
    }
  } catch {
    // A ref that vanished between the reads: report what was gathered.
  }
  return lines.length ? [`Git: ${lines.join("\n")}`] : [];
}
