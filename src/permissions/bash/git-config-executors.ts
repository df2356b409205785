// A read-only git command still runs programs when the repository's own configuration names them:
// `git status` starts core.fsmonitor, `git diff` runs diff.external and textconv drivers, a clean
// filter runs on every changed file, a post-index-change hook on the index refresh of `status`.
// A repository unpacked from an archive brings its `.git/config` and `.git/hooks/` along, so the
// read-only allowance holds only where that configuration names no such program; otherwise the
// command asks. The user's own (global and system) configuration is theirs and is not questioned.
import { isAbsolute, join, resolve } from "node:path";
import { readGitConfigSync } from "../../fs/git-config-read.js";
import { configFilesOf, type GitRepository, repositoryAt, stampOf, statQuietly } from "../filesystem/git-repository.js";

/** Keys of the repository's own config that make git run a program (or look somewhere else). */
const EXECUTING_KEYS: readonly RegExp[] = [
  /^core\.(pager|editor|sshcommand|gitproxy|askpass|alternaterefscommand|worktree)$/,
  /^pager\./,
  /^diff\.external$/,
  /^diff\..+\.(textconv|command)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^merge\..+\.driver$/,
  /^gpg\.(.+\.)?program$/,
  /^credential\.(.+\.)?helper$/,
  /^remote\..+\.(uploadpack|receivepack|vcs)$/,
  /^protocol\.(.+\.)?allow$/,
  /^interactive\.difffilter$/,
  /^sequence\.editor$/,
  /^(web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path))$/,
  /^tar\..+\.command$/,
  /^submodule\..+\.update$/,
];

/** Hooks a read-only command can set off: `git status` refreshes (writes) the index. */
const READ_PATH_HOOKS = ["post-index-change"];

interface CachedAnswer {
  stamp: string;
  /** What the repository's own config sets that would run, or why it could not be read. */
  executors: string[];
}

const cache = new Map<string, CachedAnswer>();

/**
 * What a git command run in `dir` would start because the repository says so: config keys
 * (`core.fsmonitor`), hooks (`.git/hooks/post-index-change`), or why the config could not be read.
 * Empty when git would run nothing of the repository's choosing.
 */
export function repositoryExecutors(dir: string): string[] {
  const repository = repositoryAt(dir);
  if (repository === undefined) return [];
  const stamp = stampOf(configFilesOf(repository));
  let cached = cache.get(repository.top);
  if (!cached || cached.stamp !== stamp) {
    cached = { stamp, executors: readExecutingKeys(repository) };
    cache.set(repository.top, cached);
  }
  // Hooks are files, not config: looked at every time (a stat or two).
  // A hooks path matters only through the hooks found in it.
  const keys = cached.executors.filter((e) => !e.startsWith("core.hooksPath="));
  return [...keys, ...presentHooks(repository, cached.executors)];
}

function readExecutingKeys(repository: GitRepository): string[] {
  let output: string;
  try {
    // `git config` only reads configuration (includes followed, as git status would): no hook,
    // fsmonitor or external program runs.
    output = readGitConfigSync(repository.top, ["--show-scope", "-z", "--list"]);
  } catch {
    return ["a repository configuration git would not list"];
  }
  const found: string[] = [];
  const fields = output.split("\0");
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i] ?? "";
    if (scope !== "local" && scope !== "worktree") continue;
    const entry = fields[i + 1] ?? "";
    const newline = entry.indexOf("\n");
    const key = (newline === -1 ? entry : entry.slice(0, newline)).toLowerCase();
    const value = newline === -1 ? "" : entry.slice(newline + 1);
    if (key === "core.hookspath") found.push(`core.hooksPath=${value}`);
    else if (key === "core.fsmonitor") {
      // `true` is git's own built-in daemon; `false` turns it off; anything else is a program.
      if (!/^(true|false|yes|no|on|off|1|0|)$/i.test(value.trim())) found.push(key);
    } else if (EXECUTING_KEYS.some((pattern) => pattern.test(key))) found.push(key);
  }
  return found;
}

/** Read-path hooks present in the folder git would run them from. */
function presentHooks(repository: GitRepository, executors: readonly string[]): string[] {
  const configured = executors.find((e) => e.startsWith("core.hooksPath="))?.slice("core.hooksPath=".length);
  const folder =
    configured === undefined
      ? join(repository.commonDir, "hooks")
      : isAbsolute(configured)
        ? configured
        : resolve(repository.top, configured);
  return READ_PATH_HOOKS.filter((hook) => statQuietly(join(folder, hook))?.isFile()).map((hook) => `the ${hook} hook`);
}
