// The folder git runs hooks from when `core.hooksPath` names one (husky sets it to `.husky/_`,
// teams to `.githooks`): a file written there runs on the next commit or checkout, outside every
// permission check, so writes into it are protected like `.git/hooks`. git itself answers (it
// knows every config file, includes and worktrees); the answer is cached per repository and asked
// again when one of the config files changes, so a write check costs a few stat calls.
import { isAbsolute, resolve } from "node:path";
import { readGitConfigSync } from "../../fs/git-config-read.js";
import { configFilesOf, repositoryOfFile, stampOf } from "./git-repository.js";

interface CachedHooksPath {
  /** Absolute hooks folder, or undefined when core.hooksPath is not set. */
  folder: string | undefined;
  /** mtimes of the config files the answer came from; any change asks git again. */
  stamp: string;
}

const cache = new Map<string, CachedHooksPath>();

function askGit(top: string): string | undefined {
  try {
    // `git config` reads configuration only: no hook, fsmonitor or external program runs.
    const value = readGitConfigSync(top, ["--type=path", "--get", "core.hooksPath"]).trim();
    if (value === "") return undefined;
    // A relative hooks path is relative to the top of the work tree, where git runs hooks.
    return isAbsolute(value) ? value : resolve(top, value);
  } catch {
    // Unset (exit 1), no git, or not a repository git will read: no hooks folder to protect.
    return undefined;
  }
}

/** The folder `core.hooksPath` names for the repository holding `path`, if any. */
export function configuredHooksFolder(path: string): string | undefined {
  const repository = repositoryOfFile(path);
  if (repository === undefined) return undefined;
  const { top } = repository;
  const stamp = stampOf(configFilesOf(repository));
  const cached = cache.get(top);
  if (cached && cached.stamp === stamp) return cached.folder;
  const folder = askGit(top);
  cache.set(top, { folder, stamp });
  return folder;
}
