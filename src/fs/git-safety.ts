// What makes a git that Warden runs for itself (worktrees, the fleet's clones and patches, the
// repository checks) run nothing of the repository's choosing. A repository is files someone else
// wrote: its .git/config and .gitattributes can name programs git runs on its own, a hook on
// checkout (post-checkout, reference-transaction...), a smudge/clean/process filter for the files an
// attribute marks, an fsmonitor on status, an external diff or textconv on diff. Bash's `git
// status` asks for that reason (permissions/bash/git-config-executors.ts); Warden's own git must
// not be a way around it. Pure: which overrides, from which configuration; the running is
// `fs/git-run.ts` (async) and `fs/git-config-read.ts` (a configuration read, synchronous).

/**
 * Settings every Warden git runs with, whatever the configuration says. Hooks: a hooks folder that
 * holds nothing (git looks for `/dev/null/<hook>`, which cannot exist). The rest turn off what
 * runs a program without a hook: fsmonitor, the pager, automatic gc and maintenance (which run
 * hooks and programs of their own), commit signing (gpg.program), and the `ext::` transport.
 */
export const FIXED_OVERRIDES: ReadonlyArray<readonly [string, string]> = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["core.alternateRefsCommand", ""],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["protocol.ext.allow", "never"],
];

/**
 * Keys whose value is a program git runs for a file, under a name a `.gitattributes` line picks
 * (`filter=<name>`). Any name counts: a filter is only ever run through its configuration, so
 * blanking every one the configuration defines leaves none to run, whatever name the attributes use.
 */
const FILTER_PROGRAM = /^filter\.(.+)\.(smudge|clean|process)$/;

/**
 * Keys a repository's own configuration (local or worktree scope) may set to a program that runs
 * on a transport or a prompt; from the user's own (global, system) configuration they are the
 * user's choice and kept (a worker's clone over ssh needs its ssh command).
 */
const REPOSITORY_PROGRAM = /^(core\.sshcommand|core\.askpass|core\.gitproxy|core\.editor|sequence\.editor)$/;

/** Environment variables of the caller's that would send git elsewhere or run a program. */
export const CLEARED_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_EXTERNAL_DIFF",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
] as const;

/** A configuration entry as `git config --list --show-scope --name-only -z` prints it. */
export interface ConfigName {
  scope: string;
  key: string;
}

/** Parses `git config --list --show-scope --name-only -z` output: `scope\0key\0` pairs. */
export function parseConfigNames(output: string): ConfigName[] {
  const fields = output.split("\0");
  const names: ConfigName[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    names.push({ scope: fields[i] ?? "", key: fields[i + 1] ?? "" });
  }
  return names;
}

/**
 * The `-c key=value` overrides that turn off every program the listed configuration names. A key
 * `-c` cannot carry (an `=` or a line break in a filter's name) cannot be turned off: the caller is
 * told, so git is not run (fail closed).
 */
export function overridesFor(names: readonly ConfigName[]): Array<readonly [string, string]> {
  const overrides: Array<readonly [string, string]> = [...FIXED_OVERRIDES];
  const seen = new Set<string>();
  const add = (key: string, value: string) => {
    if (seen.has(`${key}=${value}`)) return;
    if (/[=\n\r\0]/.test(key))
      throw new Error(
        `the git configuration names a program under a key git -c cannot override: ${JSON.stringify(key)}`,
      );
    seen.add(`${key}=${value}`);
    overrides.push([key, value]);
  };
  for (const { scope, key } of names) {
    const filter = FILTER_PROGRAM.exec(key);
    if (filter) {
      // An empty command is no command; `required` would then make git fail on the file, so off too.
      add(key, "");
      add(`filter.${filter[1]}.required`, "false");
    } else if ((scope === "local" || scope === "worktree") && REPOSITORY_PROGRAM.test(key.toLowerCase())) {
      add(key, key.toLowerCase() === "core.sshcommand" ? "ssh" : "");
    }
  }
  return overrides;
}

/** Overrides as git's leading `-c` arguments (after the caller's environment, so they win). */
export function overrideArgs(overrides: ReadonlyArray<readonly [string, string]>): string[] {
  return overrides.flatMap(([key, value]) => ["-c", `${key}=${value}`]);
}

/**
 * Porcelain commands that run an external diff (`diff.external`, a `diff=<driver>` attribute's
 * command) or a textconv program: they get `--no-ext-diff --no-textconv` (an empty value in the
 * configuration would make git fail, not skip).
 */
const DIFFING = new Set(["diff", "log", "show", "format-patch"]);

/** `args` with the diff programs turned off when the command is one that would run them. */
export function withoutDiffPrograms(args: readonly string[]): string[] {
  const command = args[0];
  if (command === undefined || !DIFFING.has(command)) return [...args];
  return [command, "--no-ext-diff", "--no-textconv", ...args.slice(1)];
}

/** The environment a Warden git runs in: the caller's, less what redirects git, no prompts. */
export function gitEnvironment(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of CLEARED_ENV) delete env[name];
  for (const name of Object.keys(env)) if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete env[name];
  return { ...env, ...extra, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0" };
}
