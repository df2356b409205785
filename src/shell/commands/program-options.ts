// Options and operands that name a program for the command to run (or a script or configuration
// that does): tar's `--use-compress-program`/`-I`/`--to-command`/`--checkpoint-action`, rsync's
// `-e`/`--rsync-path`, ssh's `-o ProxyCommand=`, man's `-P`, less's `+!cmd`, vim's `-c`, go's
// `-toolexec`, git's `--upload-pack`, `clone -u`, `rebase -x`, `submodule foreach`... An allow rule
// for the command's prefix (`Bash(tar:*)`) names the command the user had in mind, never the
// program such an option starts: the permission layer asks unless the rule spells the option.
// Long options are matched by any prefix getopt would take (`--use-comp=sh`), short ones inside
// clusters (`-xIsh`), and a spelling that cannot be told apart counts as the option.
import { commandBaseName, type Field, matchesLong } from "../words/index.js";
import { launchedCommands } from "./launched-programs.js";

export interface ProgramOption {
  /** The word as written that names (or is) the program. */
  word: string;
  reason: string;
}

interface ProgramOptionSpec {
  /** Short option letters whose value (or effect) is a program, found in any cluster. */
  short?: string;
  /** Long options (without `--`); abbreviations down to `minimum` letters count. */
  long?: readonly string[];
  /** Options spelled with one dash and a word (`go test -exec`, `vim --cmd` too). */
  singleDash?: readonly string[];
  /** `-o Key=value` options in ssh's configuration language. */
  sshOptions?: boolean;
  /** Operands `NAME=value` that set a program (make's `SHELL=`). */
  assignments?: RegExp;
  /** `+command` words the program executes; those matching `safePlus` are plain positions or searches. */
  plusCommands?: boolean;
  /** tar's old style: a first word without a dash is a cluster of option letters. */
  bundledFirst?: boolean;
  /** Short and long options that take the next word as their value (`tar -f "$ARCHIVE"`). */
  valueShort?: string;
  valueLong?: readonly string[];
}

/**
 * Whether a word known only at run time is the value of the option before it, rather than a word
 * that may itself turn out to be an option (`X=--upload-pack=sh; git fetch -v "$X"`).
 */
function isOptionValue(previous: Field | undefined, valueShort: string, valueLong: readonly string[]): boolean {
  if (!previous?.literal || previous.value.includes("=")) return false;
  const text = previous.value;
  if (text.startsWith("--")) return valueLong.includes(text.slice(2));
  return /^-[A-Za-z0-9]+$/.test(text) && valueShort.includes(text.at(-1) ?? "");
}

/**
 * Shortest abbreviation of a long option taken as that option: getopt refuses an ambiguous one,
 * but which ones are ambiguous depends on the program's version.
 */
const MIN_ABBREVIATION = 2;

/** ssh configuration keys that run a local program or load code. */
const SSH_EXECUTING_KEYS =
  /^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match|include|pkcs11provider|securitykeyprovider|proxyusefdpass|remotecommand)$/i;

const SSH: ProgramOptionSpec = { short: "F", sshOptions: true };
const EDITOR: ProgramOptionSpec = {
  short: "cSu",
  long: ["cmd", "eval", "load", "funcall", "script", "init-directory"],
  plusCommands: true,
};

const PROGRAM_OPTIONS: Record<string, ProgramOptionSpec> = {
  tar: {
    short: "IF",
    long: [
      "use-compress-program",
      "to-command",
      "checkpoint-action",
      "rsh-command",
      "rmt-command",
      "info-script",
      "new-volume-script",
    ],
    bundledFirst: true,
    valueShort: "fCbgHKLNTVX",
    valueLong: ["file", "directory", "exclude", "files-from", "exclude-from", "transform", "xform", "label"],
  },
  bsdtar: { long: ["use-compress-program"], short: "I" },
  rsync: { short: "eM", long: ["rsh", "rsync-path", "remote-option", "config"] },
  scp: { ...SSH, short: "FSD" },
  sftp: { ...SSH, short: "FSD" },
  ssh: SSH,
  sort: { long: ["compress-program"] },
  man: { short: "PHC", long: ["pager", "html", "config-file"] },
  less: { short: "kK", long: ["lesskey-file", "lesskey-src", "lesskey-content"], plusCommands: true },
  more: { plusCommands: true },
  most: { plusCommands: true },
  vim: EDITOR,
  vi: EDITOR,
  nvim: EDITOR,
  view: EDITOR,
  ex: EDITOR,
  gvim: EDITOR,
  emacs: { short: "lf", long: ["eval", "load", "funcall", "script", "execute"], plusCommands: false },
  zip: { short: "", long: ["unzip-command"], singleDash: ["TT"] },
  sdiff: { long: ["diff-program"] },
  diff3: { long: ["diff-program"] },
  rg: { long: ["pre", "hostname-bin"] },
  fd: { short: "xX", long: ["exec", "exec-batch"] },
  fdfind: { short: "xX", long: ["exec", "exec-batch"] },
  go: { singleDash: ["exec", "toolexec", "vettool", "overlay"], long: ["exec", "toolexec", "vettool", "overlay"] },
  cargo: { long: ["config"] },
  // `--prefix`/`-C` (npm), `--dir`/`-C` (pnpm) and `--cwd` (yarn) run another folder's
  // package.json scripts: `npm run test --prefix /tmp` runs /tmp's "test", not the project's.
  npm: { long: ["script-shell", "node-options", "userconfig", "globalconfig", "call", "prefix"], short: "cC" },
  pnpm: { long: ["script-shell", "node-options", "config", "dir"], short: "C" },
  yarn: { long: ["script-shell", "node-options", "cwd"] },
  make: { long: ["eval"], assignments: /^(SHELL|MAKESHELL|\.SHELLFLAGS)[:+?]?=/ },
  gmake: { long: ["eval"], assignments: /^(SHELL|MAKESHELL|\.SHELLFLAGS)[:+?]?=/ },
  pytest: { short: "p" },
  flock: { short: "c", long: ["command"] },
  script: { short: "c", long: ["command"] },
  su: { short: "cs", long: ["command", "shell", "session-command"] },
  gdb: { short: "x", long: ["command", "eval-command", "init-command", "init-eval-command"], singleDash: ["ex"] },
  openssl: { singleDash: ["engine", "provider", "provider-path"] },
};

/** git options that name a program, wherever they stand after the subcommand. */
const GIT_LONG = [
  "upload-pack",
  "receive-pack",
  "exec",
  "ext-diff",
  "extcmd",
  "open-files-in-pager",
  "tool",
  "template",
  "config",
  "tree-filter",
  "index-filter",
  "parent-filter",
  "msg-filter",
  "commit-filter",
  "tag-name-filter",
  "subdirectory-filter",
  "env-filter",
  "sendmail-cmd",
  "smtp-server",
  "to-cmd",
  "cc-cmd",
  "header-cmd",
  "httpd",
  "browser",
  "web",
];
/** Short options that name a program, by subcommand (`git add -u` is harmless, `git clone -u` is not). */
const GIT_SHORT: Record<string, string> = {
  clone: "uc",
  "ls-remote": "u",
  archive: "",
  rebase: "x",
  difftool: "xtg",
  mergetool: "t",
  grep: "O",
  help: "w",
  instaweb: "d",
};
/** git options whose value is the next word (a message, a file, an author...). */
const GIT_VALUE_SHORT = "mFCc";
const GIT_VALUE_LONG = [
  "message",
  "file",
  "author",
  "date",
  "reuse-message",
  "reedit-message",
  "fixup",
  "squash",
  "trailer",
  "format",
  "pretty",
  "grep",
  "since",
  "until",
  "after",
  "before",
  "branch",
  "depth",
  "origin",
];
/** Subcommand words that run a program given as the next words. */
const GIT_PROGRAM_SUBCOMMANDS: Record<string, readonly string[]> = {
  submodule: ["foreach"],
  bisect: ["run"],
};
/** Global options of git before the subcommand that set configuration or programs. */
const GIT_GLOBALS = new Set(["-c", "--config-env", "--exec-path"]);
const GIT_GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]);
/** Configuration keys that name a program (`git config core.pager sh`, `git clone -c ...`). */
const GIT_EXECUTING_KEY =
  /^(core\.(pager|editor|sshcommand|gitproxy|askpass|fsmonitor|hookspath|alternaterefscommand)|pager\..+|diff\.external|diff\..+\.(textconv|command)|filter\..+\.(clean|smudge|process)|merge\..+\.driver|gpg\.(.+\.)?program|credential\.(.+\.)?helper|remote\..+\.(uploadpack|receivepack|vcs)|sequence\.editor|alias\..+|include\.path|includeif\..+|(browser|man|difftool|mergetool)\..+\.(cmd|path)|web\.browser|tar\..+\.command|submodule\..+\.update|uploadpack\.packobjectshook|interactive\.difffilter)$/i;

/** The first option or operand of `words` that names a program for the command to run, or undefined. */
export function programOptionOf(words: Field[]): ProgramOption | undefined {
  const head = words[0];
  if (!head) return undefined;
  const name = commandBaseName(head.value);
  if (name === "git") return gitProgramOption(words);
  const spec = PROGRAM_OPTIONS[name];
  const own = spec ? specProgramOption(name, spec, words) : undefined;
  if (own) return own;
  // The program a launcher starts (`python3 -m pytest -p x`, `uv run pytest -p x`) has its own.
  for (const launched of launchedCommands(words)) {
    const found = programOptionOf(launched);
    if (found) return found;
  }
  return undefined;
}

function specProgramOption(name: string, spec: ProgramOptionSpec, words: Field[]): ProgramOption | undefined {
  const found = (word: string, what: string): ProgramOption => ({
    word,
    reason: `${name} ${what} names a program for it to run`,
  });
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] as Field;
    const text = word.value;
    if (text === "--") break;
    // A word known only at run time may be any of these options, unless it is an option's value.
    if (!word.literal && !isOptionValue(words[i - 1], spec.valueShort ?? "", spec.valueLong ?? []))
      return found(word.source, `${word.source} (known only at run time, it may be such an option)`);
    if (!word.literal) continue;
    if (text.startsWith("--")) {
      const option = text.split("=")[0] ?? text;
      const long = spec.long?.find((l) => matchesLong(option, l, MIN_ABBREVIATION));
      if (long) return found(option, `--${long}`);
      continue;
    }
    if (text.startsWith("-") && text.length > 1) {
      const bare = text.slice(1).split("=")[0] ?? "";
      const single = spec.singleDash?.find((s) => bare === s);
      if (single) return found(`-${single}`, `-${single}`);
      if (spec.sshOptions) {
        const value = text === "-o" ? words[i + 1]?.value : text.startsWith("-o") ? text.slice(2) : undefined;
        const key = value?.trim().split(/[\s=]/)[0] ?? "";
        if (value !== undefined && (SSH_EXECUTING_KEYS.test(key) || !words[i + 1]?.literal))
          return found(text, `-o ${key}`);
      }
      const letter = [...text.slice(1)].find((c) => spec.short?.includes(c));
      if (letter) return found(`-${letter}`, `-${letter}`);
      continue;
    }
    if (spec.bundledFirst && i === 1 && /^[A-Za-z]+$/.test(text)) {
      const letter = [...text].find((c) => spec.short?.includes(c));
      if (letter) return found(`-${letter}`, `-${letter} (in ${text})`);
    }
    if (spec.plusCommands && text.startsWith("+") && !/^\+(\d+|[FGg]|\/[^!|]*)$/.test(text))
      return found(text, `${text} (a command at start-up)`);
    if (spec.assignments?.test(text)) return found(text, text.split("=")[0] ?? text);
  }
  return undefined;
}

function gitProgramOption(words: Field[]): ProgramOption | undefined {
  const found = (word: string, reason: string): ProgramOption => ({ word, reason });
  let i = 1;
  while (i < words.length) {
    const text = words[i]?.value ?? "";
    if (!text.startsWith("-")) break;
    const option = text.split("=")[0] ?? text;
    if (GIT_GLOBALS.has(option)) return found(option, `git ${option} sets configuration that can name a program`);
    i += GIT_GLOBAL_WITH_VALUE.has(option) && !text.includes("=") ? 2 : 1;
  }
  const sub = words[i]?.value;
  if (sub === undefined) return undefined;
  const args = words.slice(i + 1);
  const programWords = GIT_PROGRAM_SUBCOMMANDS[sub];
  const action = args.find((a) => !a.value.startsWith("-"))?.value;
  if (programWords && action !== undefined && programWords.includes(action))
    return found(action, `git ${sub} ${action} runs a program given as its arguments`);
  const short = GIT_SHORT[sub] ?? "";
  for (const [k, arg] of args.entries()) {
    const text = arg.value;
    if (text === "--") break;
    if (!arg.literal) {
      if (isOptionValue(args[k - 1] ?? words[i], GIT_VALUE_SHORT, GIT_VALUE_LONG)) continue;
      return found(arg.source, `${arg.source} is known only at run time and may be such an option`);
    }
    if (text.startsWith("--")) {
      const option = text.split("=")[0] ?? text;
      const long = GIT_LONG.find((l) => matchesLong(option, l, MIN_ABBREVIATION));
      if (long) return found(option, `git ${sub} --${long} names a program for git to run`);
      continue;
    }
    if (text.startsWith("-") && short !== "") {
      const letter = [...text.slice(1)].find((c) => short.includes(c));
      if (letter) return found(`-${letter}`, `git ${sub} -${letter} names a program for git to run`);
    }
    // `git config core.pager sh`, `git config set core.pager sh`: configuration that runs a program.
    if (sub === "config" && !text.startsWith("-") && GIT_EXECUTING_KEY.test(text) && k + 1 < args.length)
      return found(text, `git config ${text} sets a program for git to run`);
  }
  return undefined;
}
