// git subcommands that only read, with the arguments that would turn them into writes or into
// running another program (pagers, external diff, upload-pack, filters, config overrides).

import { type Field, matchesLong, parseArgs } from "../words/index.js";
import { couldExpandToFlag, notReadOnly, type ReadOnlyVerdict, readOnly, smuggledOption } from "./verdict.js";

/** Global options before the subcommand, and whether each takes a value. */
const GLOBAL_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--super-prefix",
  "--config-env",
  "--list-cmds",
  "--attr-source",
]);
/** Global options that run or redirect something: a config override can set a hook or pager. */
const UNSAFE_GLOBALS = new Set([
  "-c",
  "--git-dir",
  "--work-tree",
  "--exec-path",
  "--config-env",
  "-p",
  "--paginate",
  "--super-prefix",
  "--namespace",
  "--attr-source",
]);

/** Long options that write a file or spawn a program, whatever the subcommand. */
const UNSAFE_LONG = [
  "output",
  "ext-diff",
  "open-files-in-pager",
  "upload-pack",
  "receive-pack",
  "exec",
  "filters",
  "textconv",
  "paginate",
  "run",
  "edit",
];

const PLAIN_READERS = new Set([
  "status",
  "log",
  "show",
  "diff",
  "blame",
  "annotate",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "ls-remote",
  "cat-file",
  "count-objects",
  "grep",
  "shortlog",
  "describe",
  "merge-base",
  "name-rev",
  "rev-list",
  "show-ref",
  "show-branch",
  "for-each-ref",
  "whatchanged",
  "cherry",
  "check-ignore",
  "check-attr",
  "diff-tree",
  "diff-files",
  "diff-index",
  "version",
  "var",
]);

export interface GitInvocation {
  /** Index of the subcommand in words, or words.length when there is none. */
  subcommandIndex: number;
  /** Global options found before it. */
  globals: string[];
  /** Values of -C, which moves where relative paths land. */
  directories: Field[];
}

export function locateGitSubcommand(words: Field[]): GitInvocation {
  const globals: string[] = [];
  const directories: Field[] = [];
  let i = 1;
  while (i < words.length) {
    const text = words[i]?.value ?? "";
    if (!text.startsWith("-")) break;
    const name = text.split("=")[0] ?? text;
    globals.push(name);
    if (GLOBAL_WITH_VALUE.has(name) && !text.includes("=")) {
      if (name === "-C" && words[i + 1]) directories.push(words[i + 1] as Field);
      i += 2;
    } else i += 1;
  }
  return { subcommandIndex: i, globals, directories };
}

export function checkGitReadOnly(words: Field[]): ReadOnlyVerdict {
  const invocation = locateGitSubcommand(words);
  const unsafeGlobal = invocation.globals.find((g) => UNSAFE_GLOBALS.has(g));
  if (unsafeGlobal) return smuggledOption(`git ${unsafeGlobal} can run or redirect programs`, unsafeGlobal);
  const sub = words[invocation.subcommandIndex];
  if (!sub) {
    const onlyVersion = invocation.globals.every((g) => g === "--version" || g === "--help" || g === "--no-pager");
    return onlyVersion && invocation.globals.length > 0 ? readOnly() : notReadOnly("git without a subcommand");
  }
  if (!sub.literal) return notReadOnly("the git subcommand is known only at run time");
  const args = words.slice(invocation.subcommandIndex + 1);
  for (const arg of args) {
    if (!arg.value.startsWith("--")) continue;
    if (UNSAFE_LONG.some((long) => matchesLong(arg.value, long, 1)))
      return smuggledOption(`git ${sub.value} ${arg.value} writes or runs something`, arg.value.split("=")[0] ?? "");
  }
  if (args.some(couldExpandToFlag)) return notReadOnly("an unquoted glob or variable could become a git flag");
  const paths = [...invocation.directories, ...pathLikeOperands(args)];
  const verdict = checkSubcommand(sub.value, args);
  return verdict.readOnly ? readOnly(paths) : verdict;
}

/** git arguments are revisions or paths; those that can leave the working tree are checked. */
function pathLikeOperands(args: Field[]): Field[] {
  const leavesTree = (value: string) => /^(\/|~)|(^|\/)\.\.(\/|$)/.test(value);
  const paths: Field[] = [];
  for (const arg of args) {
    if (!arg.value.startsWith("-")) {
      if (leavesTree(arg.value)) paths.push(arg);
      continue;
    }
    // `--contents=/etc/shadow`, `--output-directory=..`: option values can name files too.
    const eq = arg.value.indexOf("=");
    if (arg.value.startsWith("--") && eq !== -1 && leavesTree(arg.value.slice(eq + 1)))
      paths.push({ ...arg, value: arg.value.slice(eq + 1) });
  }
  return paths;
}

function checkSubcommand(sub: string, args: Field[]): ReadOnlyVerdict {
  if (PLAIN_READERS.has(sub)) {
    if (sub === "grep" && args.some((a) => /^-[^-]*O/.test(a.value)))
      return smuggledOption("git grep -O opens a pager program", "-O");
    if (sub === "ls-remote" && args.some((a) => a.value === "-u" || a.value.startsWith("-u"))) {
      return smuggledOption("git ls-remote -u runs a program", "-u");
    }
    return readOnly();
  }
  const parsed = parseArgs(args, 0, {});
  const flags = parsed.options.map((o) => o.flag);
  const operands = parsed.operands.map((o) => o.value);
  switch (sub) {
    case "branch": {
      const listing = [
        "-a",
        "-r",
        "-v",
        "-l",
        "--list",
        "--all",
        "--remotes",
        "--verbose",
        "--show-current",
        "--contains",
        "--no-contains",
        "--merged",
        "--no-merged",
        "--sort",
        "--format",
        "--points-at",
        "--color",
        "--no-color",
        "--column",
        "--no-column",
        "-i",
        "--ignore-case",
        "--abbrev",
        "--no-abbrev",
      ];
      if (!flags.every((f) => listing.includes(f))) return notReadOnly("git branch with a changing flag");
      const isList = flags.some((f) => f === "-l" || f === "--list");
      if (
        operands.length > 0 &&
        !isList &&
        !flags.some((f) =>
          ["--contains", "--merged", "--no-merged", "--no-contains", "--points-at", "--sort", "--format"].includes(f),
        )
      ) {
        return notReadOnly("git branch <name> creates a branch");
      }
      return readOnly();
    }
    case "tag": {
      const listing = [
        "-l",
        "--list",
        "-n",
        "--contains",
        "--no-contains",
        "--merged",
        "--no-merged",
        "--sort",
        "--format",
        "--points-at",
        "--color",
        "--column",
        "--no-column",
        "-i",
        "--ignore-case",
      ];
      if (!flags.every((f) => listing.includes(f) || /^-n\d+$/.test(f)))
        return notReadOnly("git tag with a changing flag");
      if (operands.length > 0 && !flags.some((f) => f === "-l" || f === "--list"))
        return notReadOnly("git tag <name> creates a tag");
      return readOnly();
    }
    case "remote":
      if (operands.length === 0 && flags.every((f) => f === "-v" || f === "--verbose")) return readOnly();
      if (operands[0] === "show" || operands[0] === "get-url") return readOnly();
      return notReadOnly("git remote with a changing subcommand");
    case "config": {
      const reading = [
        "--get",
        "--get-all",
        "--get-regexp",
        "--list",
        "-l",
        "--show-origin",
        "--show-scope",
        "--null",
        "-z",
        "--name-only",
        "--global",
        "--local",
        "--system",
        "--includes",
        "--type",
        "--default",
        "get",
        "list",
      ];
      const action = operands[0];
      const reads =
        action === "get" ||
        action === "list" ||
        (flags.some((f) => ["--get", "--get-all", "--get-regexp", "--list", "-l"].includes(f)) &&
          flags.every((f) => reading.includes(f)));
      if (!reads) return notReadOnly("git config without --get/--list changes configuration");
      // Every setting at once, or all matching a pattern, from the user's and the system's files
      // too (~/.gitconfig, outside the project, which can hold a token in http.extraHeader or a
      // url's insteadOf): read as `cat ~/.gitconfig` would be. The repository's own stays free.
      const dumps =
        action === "list" ||
        (action === "get" && flags.some((f) => f === "--all" || f === "--regexp")) ||
        flags.some((f) => ["--get-regexp", "--list", "-l"].includes(f));
      if (dumps && !flags.includes("--local"))
        return notReadOnly("git config --list shows the user's and the system's settings, outside the project");
      return readOnly();
    }
    case "reflog":
      return operands[0] === undefined ||
        operands[0] === "show" ||
        operands[0] === "list" ||
        !["expire", "delete", "drop", "exists"].includes(operands[0])
        ? readOnly()
        : notReadOnly("git reflog expire/delete changes the reflog");
    case "stash":
      return operands[0] === "list" || operands[0] === "show"
        ? readOnly()
        : notReadOnly("git stash changes the working tree");
    case "worktree":
      return operands[0] === "list" ? readOnly() : notReadOnly("git worktree changes worktrees");
    case "submodule":
      // Bare `git submodule` is `status`; every other action clones, checks out or runs a program.
      return (operands.length === 0 || operands[0] === "status") &&
        flags.every((f) => ["--recursive", "--cached", "--quiet", "-q"].includes(f))
        ? readOnly()
        : notReadOnly("git submodule changes submodules or runs a program in each");
    case "notes":
      return operands[0] === "list" || operands[0] === "show" ? readOnly() : notReadOnly("git notes changes notes");
    default:
      return notReadOnly(`git ${sub} is not a read-only subcommand`);
  }
}
