// Which files a command reads, as far as its words say: the read-only classifier's paths (cat,
// head, grep's files, sort's inputs...), git's explicit files (`git diff --no-index a b`,
// `git show REV:path`, pathspecs after `--`), cp/rsync/scp sources, and the folders a recursive
// search reads whole (`grep -r`, `rg`, `ag`, `git grep`; with no folder named, the current one),
// and git commands that print file contents from the repository's tree or history without saying
// which files (`git diff`, `git show REV`, `git log -p`, `git cat-file -p SHA`).
import type { ReadOnlyVerdict } from "../../shell/read-only/index.js";
import { locateGitSubcommand } from "../../shell/read-only/index.js";
import { commandBaseName, type Field, parseArgs } from "../../shell/words/index.js";
import { homeResolved, pathCandidates } from "./path-candidates.js";

export interface ReadTargets {
  files: Field[];
  folders: Field[];
  /** The command searches the folder it runs in (no folder named). */
  searchesHere: boolean;
  /**
   * A git command prints contents of files it does not name, from the working tree or from any
   * commit: the whole repository (and its history) is read. `directories` are its `-C` folders,
   * each relative to the one before.
   */
  repository?: { directories: Field[] };
  /**
   * The command reads files whose names the text does not give: an operand known only at run time
   * (`cat "$f"`), names xargs takes from its input, the files `find -exec` hands its command.
   */
  unknown?: boolean;
  /** Operands that may be files or folders the command reads (any command not in the read-only tables). */
  operands?: Field[];
}

const RECURSIVE_ALWAYS = new Set(["rg", "ag", "ack"]);
const GREPS = new Set(["grep", "egrep", "fgrep"]);

export function readTargetsOf(words: Field[], verdict: ReadOnlyVerdict): ReadTargets {
  const name = commandBaseName(words[0]?.literal ? words[0].value : "");
  const files = verdict.readOnly ? [...verdict.paths] : [];
  const targets: ReadTargets = { files, folders: [], searchesHere: false };
  if (STDIN_NAMES.has(name)) targets.unknown = true;
  if (!verdict.readOnly && name !== "git") anyProgramTargets(name, words, targets);
  if (name === "git") return gitTargets(words, targets);
  if (name === "cp" || name === "rsync" || name === "scp" || name === "install") {
    const operands = parseArgs(words, 1, {
      shortWithValue: "tSe",
      longWithValue: ["target-directory", "suffix", "rsh"],
    }).operands;
    // The last operand is the destination (checked as a write); the others are read, whole if -r.
    const recursive = words.some(
      (w) => /^-[a-zA-Z]*[rRa]/.test(w.value) || w.value === "--recursive" || w.value === "--archive",
    );
    for (const source of operands.slice(0, -1)) (recursive ? targets.folders : targets.files).push(source);
    return targets;
  }
  const recursive =
    RECURSIVE_ALWAYS.has(name) ||
    (GREPS.has(name) &&
      words.some(
        (w) =>
          /^-[a-zA-Z]*[rR]/.test(w.value) || w.value.startsWith("--recursive") || w.value === "--dereference-recursive",
      )) ||
    (name === "diff" && words.some((w) => /^-[a-zA-Z]*r/.test(w.value) || w.value === "--recursive"));
  if (recursive && verdict.readOnly) {
    // Every named path may be a folder read whole.
    targets.folders.push(...verdict.paths);
    if (verdict.paths.length === 0 && !words.some((w) => w.value === "--files" || w.value === "--type-list"))
      targets.searchesHere = true;
  }
  return targets;
}

/** Commands that run a command on names read from their input. */
const STDIN_NAMES = new Set(["xargs", "parallel"]);
/** Programs that read the files named by their operands (pagers, editors, decompressors...). */
const READERS = new Set([
  "less",
  "more",
  "most",
  "pg",
  "bat",
  "batcat",
  "view",
  "vi",
  "vim",
  "nvim",
  "nano",
  "emacs",
  "zless",
  "zmore",
  "bzcat",
  "bzless",
  "xzcat",
  "xzless",
  "lzcat",
  "zstdcat",
  "unzstd",
  "gunzip",
  "pr",
  "iconv",
  "look",
  "split",
  "csplit",
  "source",
  ".",
  "dd",
  "tar",
  "zip",
  "unzip",
  "cpio",
  "yq",
  "xmllint",
  "openssl",
  "gpg",
  "scp",
  "sftp",
  "curl",
]);

/**
 * A command the read-only tables do not know may read any file or folder its words name: each
 * operand, an option's `=value`, curl's `@file`, dd's `if=`. The caller checks each against the read
 * rules (a folder as read whole). `find` reads the folders it searches, the current one when none
 * is named, and hands the files it finds to the command of an `-exec`.
 */
function anyProgramTargets(name: string, words: Field[], targets: ReadTargets): void {
  const operands: Field[] = [];
  for (const word of words.slice(1)) {
    if (!word.literal && !homeResolved(word)) {
      // Maybe a path the caller can still place (`$PWD/x`); if not, a reader may read anything.
      if (READERS.has(name)) targets.unknown = true;
      operands.push(word);
      continue;
    }
    operands.push(...pathCandidates(word));
    const assignment = /^[a-z]+=(.+)$/.exec(word.value);
    if (assignment?.[1]) operands.push({ ...word, value: assignment[1] });
  }
  targets.operands = operands;
  // `find -exec cat {} +` with no folder named searches (and hands over) the current one.
  if (name === "find" && (words.length === 1 || /^[-(!]/.test(words[1]?.value ?? ""))) targets.searchesHere = true;
}

function gitTargets(words: Field[], targets: ReadTargets): ReadTargets {
  const subIndex = words.findIndex(
    (w, i) => i > 0 && !w.value.startsWith("-") && words[i - 1]?.value !== "-C" && words[i - 1]?.value !== "-c",
  );
  const sub = words[subIndex]?.value;
  const args = subIndex === -1 ? [] : words.slice(subIndex + 1);
  if (sub === "grep") targets.searchesHere = true;
  const dashes = args.findIndex((w) => w.value === "--");
  const pathspecs = dashes === -1 ? [] : args.slice(dashes + 1);
  const options = dashes === -1 ? args : args.slice(0, dashes);
  if (sub === "diff" && args.some((w) => w.value === "--no-index")) {
    // Both sides are plain paths, folders compared whole.
    targets.folders.push(...args.filter((w) => !w.value.startsWith("-")));
    return targets;
  }
  const blobs: Field[] = [];
  for (const arg of options) {
    // `git show HEAD:config/credentials.yml` prints that file as committed.
    const blob = /^[^:\s]*:(?!\/)(.+)$/.exec(arg.value);
    if (blob?.[1] && (sub === "show" || sub === "cat-file")) blobs.push({ ...arg, value: blob[1] });
  }
  targets.files.push(...blobs);
  // `git blame FILE` prints that file (a revision among the words resolves to no rule's path).
  if (sub === "blame" || sub === "annotate") targets.files.push(...options.filter((w) => !w.value.startsWith("-")));
  if (sub !== undefined && printsContents(sub, options, blobs.length)) {
    // A pathspec may name a folder: what is under it is read whole (and from every commit).
    if (pathspecs.length > 0) targets.folders.push(...pathspecs);
    else {
      targets.repository = { directories: locateGitSubcommand(words).directories };
    }
  } else targets.files.push(...pathspecs);
  return targets;
}

/** Options after which diff-printing subcommands print names or counts, not contents. */
const SUMMARY_ONLY =
  /^(--stat(=.*)?|--numstat|--shortstat|--name-only|--name-status|--summary|--dirstat(=.*)?|--quiet|-s|--no-patch|--raw|--compact-summary|--check)$/;
/** Options that make log-like subcommands print each commit's patch (or a file's lines). */
const PATCH =
  /^(-p|-u|--patch|--patch-with-stat|--patch-with-raw|--cc|-c|--full-diff|--binary|-L.*|-W|--function-context|--ext-diff|--textconv)$/;
/** Subcommands that print file contents unless told to summarise. */
const DIFF_LIKE = new Set(["diff", "diff-tree", "diff-index", "diff-files", "show", "difftool", "range-diff"]);
/** Subcommands that print contents only when asked for patches. */
const LOG_LIKE = new Set(["log", "whatchanged", "reflog", "stash", "shortlog", "format-patch"]);
/** Subcommands that write out whole trees or histories. */
const DUMPS = new Set(["archive", "bundle", "fast-export"]);

/**
 * Whether a git subcommand prints file contents it does not pin to named files. `blobs` is how
 * many `REV:path` arguments named files already (`git show HEAD:a` reads only a).
 */
function printsContents(sub: string, options: readonly Field[], blobs: number): boolean {
  const values = options.map((w) => w.value);
  const patch = values.some((v) => PATCH.test(v));
  if (DIFF_LIKE.has(sub)) {
    if (sub === "show" && blobs > 0 && blobs === values.filter((v) => !v.startsWith("-")).length) return false;
    return patch || !values.some((v) => SUMMARY_ONLY.test(v));
  }
  if (LOG_LIKE.has(sub)) return patch;
  if (sub === "cat-file")
    return blobs === 0 && values.some((v) => /^-[pe]$|^--batch|^blob$|^--textconv|^--filters/.test(v));
  return DUMPS.has(sub);
}
