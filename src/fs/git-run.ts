// The one way Warden runs git for itself (its worktrees, the fleet's clones and patches, a
// session's repository): git with every program the repository could make it run turned off
// (fs/git-safety.ts). Two processes per call: the configuration's names first (so a filter of
// any name is known), then the command with its overrides.
import {
  FIXED_OVERRIDES,
  gitEnvironment,
  overrideArgs,
  overridesFor,
  parseConfigNames,
  withoutDiffPrograms,
} from "./git-safety.js";

export interface GitRunOptions {
  /** Variables git should see besides the caller's (an index file, an identity). */
  env?: Record<string, string>;
  maxBuffer?: number;
}

/** Thrown when git fails: its stderr, for a message that says why. */
export class GitError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

type ExecFile = typeof import("node:child_process").execFile;

async function exec(
  execFile: ExecFile,
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  maxBuffer: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, env, encoding: "utf8", maxBuffer }, (error, stdout, stderr) => {
      if (error) reject(new GitError(`git ${args.join(" ")} failed: ${(stderr || error.message).trim()}`, stderr));
      else resolve(stdout);
    });
  });
}

/** Runs `git <args>` in `cwd` with the repository's programs off; resolves to its stdout. */
export async function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  // Loaded on the first git: node:child_process is not part of a session's start-up.
  const { execFile } = await import("node:child_process");
  const env = gitEnvironment(process.env, options.env);
  const maxBuffer = options.maxBuffer ?? 64 * 1024 * 1024;
  // Listing the configuration runs nothing (a failure is a configuration git cannot read, which
  // the command would fail on too); the fixed overrides still go with it.
  const listing = await exec(
    execFile,
    cwd,
    [...overrideArgs(FIXED_OVERRIDES), "config", "--list", "--show-scope", "--name-only", "-z"],
    env,
    maxBuffer,
  );
  const overrides = overridesFor(parseConfigNames(listing));
  return exec(execFile, cwd, [...overrideArgs(overrides), ...withoutDiffPrograms(args)], env, maxBuffer);
}
