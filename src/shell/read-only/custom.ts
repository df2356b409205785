// Read-only rules for tools whose danger lives in their arguments rather than a flag list:
// awk and jq programs, find expressions, date, and package tools that only report.

import { type Field, matchesLong, parseArgs } from "../words/index.js";
import { couldExpandToFlag, notReadOnly, type ReadOnlyVerdict, readOnly, smuggledOption } from "./verdict.js";

/** awk can run commands (system, pipes, getline from commands), write files (>), read secrets (ENVIRON). */
export function checkAwkReadOnly(words: Field[]): ReadOnlyVerdict {
  const parsed = parseArgs(words, 1, {
    shortWithValue: "FvfeiElW",
    longWithValue: ["field-separator", "assign", "file", "source", "include", "exec", "load"],
  });
  for (const option of parsed.options) {
    // -W is the POSIX door to implementation options: `mawk -W exec FILE` runs a program file,
    // and other -W words differ per awk. None is proven harmless, so every one asks.
    if (["-f", "-e", "-i", "-E", "-l", "-W"].includes(option.flag) || option.flag.startsWith("--")) {
      if (option.flag !== "--field-separator" && option.flag !== "--assign")
        return smuggledOption(`awk ${option.flag} loads program text the check cannot see`, option.flag);
    }
  }
  const program = parsed.operands[0];
  if (!program) return notReadOnly("awk without a program");
  if (!program.literal) return notReadOnly("the awk program is known only at run time");
  if (/[|>@]|\b(system|getline|close|fflush|ENVIRON|PROCINFO)\b/.test(program.value)) {
    return smuggledOption("the awk program can run commands, write files or read the environment", program.value);
  }
  const files = parsed.operands.slice(1).filter((f) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(f.value));
  return readOnly(files);
}

/** jq: -f/-L load code from disk, --rawfile/--slurpfile read arbitrary files, env/$ENV read secrets. */
export function checkJqReadOnly(words: Field[]): ReadOnlyVerdict {
  const operands: Field[] = [];
  let positionalOnly = false;
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] as Field;
    const text = word.value;
    if (positionalOnly || !text.startsWith("-") || text === "-") {
      operands.push(word);
      continue;
    }
    if (text === "--args" || text === "--jsonargs") {
      positionalOnly = true;
      continue;
    }
    if (text === "--arg" || text === "--argjson") {
      i += 2;
      continue;
    }
    if (text === "--indent") {
      i += 1;
      continue;
    }
    if (
      /^-[^-]*[fL]/.test(text) ||
      ["from-file", "library-path", "rawfile", "slurpfile", "seq"].some(
        (l) => text.startsWith("--") && matchesLong(text, l, 3),
      )
    ) {
      if (!text.startsWith("--seq")) return smuggledOption(`jq ${text} loads code or files the check cannot see`, text);
    }
  }
  const filter = operands[0];
  if (!filter) return readOnly();
  if (!filter.literal) return notReadOnly("the jq filter is known only at run time");
  if (
    /(^|[^A-Za-z0-9_$])(env|\$ENV|input_filename|\$__loc__|import|include|system|debug|stderr|input_line_number|halt_error)\b/.test(
      filter.value,
    )
  ) {
    return smuggledOption("the jq filter reads the environment, loads modules or writes to stderr", filter.value);
  }
  return readOnly(operands.slice(1));
}

const FIND_ACTIONS = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
]);
const FIND_EXEC_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** find tests whose value names a file it reads (its time stamps or identity). */
const FIND_PATH_VALUES = new Set(["-newer", "-anewer", "-cnewer", "-samefile", "-files0-from", "-newermt"]);
const FIND_WITH_VALUE = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-type",
  "-xtype",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-newer",
  "-anewer",
  "-cnewer",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-perm",
  "-maxdepth",
  "-mindepth",
  "-links",
  "-inum",
  "-samefile",
  "-lname",
  "-ilname",
  "-used",
  "-printf",
  "-regextype",
  "-fstype",
  "-context",
  "-newermt",
  "-newerct",
  "-newerat",
  "-files0-from",
]);

/**
 * Where find's start points begin: after its leading options (`-H`, `-L`, `-P`, `-D debugopts`,
 * `-Olevel`, then an optional `--`), which GNU find reads before the first start point. Taken for
 * the expression, they would hide the start points that follow (`find -L /etc -name passwd`).
 */
function findStartIndex(words: Field[]): number {
  let i = 1;
  while (i < words.length) {
    const text = words[i]?.literal ? words[i]?.value : undefined;
    if (text === "-H" || text === "-L" || text === "-P" || (text !== undefined && /^-O\d*$/.test(text))) i += 1;
    else if (text === "-D") i += 2;
    else if (text === "--") return i + 1;
    else break;
  }
  return i;
}

export function checkFindReadOnly(words: Field[]): ReadOnlyVerdict {
  const roots: Field[] = [];
  let inExpression = false;
  for (let i = findStartIndex(words); i < words.length; i += 1) {
    const word = words[i] as Field;
    const text = word.value;
    if (!word.literal && !inExpression) return notReadOnly("a find start path is known only at run time");
    if (FIND_ACTIONS.has(text)) {
      // -exec and -ok run a command the analysis sees (it is judged as a command of its own);
      // -delete and -fprint change files, which no rule for find grants.
      const reason = `find ${text} runs a command, deletes or writes files`;
      return FIND_EXEC_ACTIONS.has(text) ? notReadOnly(reason) : smuggledOption(reason, text);
    }
    if (text.startsWith("-") || text === "(" || text === "!" || text === ")") {
      inExpression = true;
      // The start points are then read from a file: any folder may be among them.
      if (text === "-files0-from") return notReadOnly("find -files0-from takes its start points from a file");
      if (FIND_PATH_VALUES.has(text) && text !== "-newermt" && words[i + 1]) roots.push(words[i + 1] as Field);
      if (FIND_WITH_VALUE.has(text)) i += 1;
      continue;
    }
    if (!inExpression) {
      if (couldExpandToFlag(word)) return notReadOnly("an unquoted glob could become a find action");
      roots.push(word);
    } else if (word.glob) return notReadOnly("an unquoted glob in a find expression could become an action");
  }
  return readOnly(roots);
}

export function checkDateReadOnly(words: Field[]): ReadOnlyVerdict {
  const parsed = parseArgs(words, 1, {
    shortWithValue: "dfrsI",
    longWithValue: ["date", "file", "reference", "set", "iso-8601", "rfc-3339"],
  });
  if (parsed.options.some((o) => o.flag === "-s" || (o.flag.startsWith("--") && matchesLong(o.flag, "set", 2))))
    return notReadOnly("date -s sets the clock");
  if (parsed.operands.some((o) => !o.value.startsWith("+")))
    return notReadOnly("date with a time operand sets the clock");
  return readOnly();
}

const VERSION_FLAGS = new Set(["--version", "-version", "-V", "-v", "version"]);
const VERSION_ONLY = new Set([
  "python",
  "python3",
  "node",
  "java",
  "javac",
  "go",
  "cargo",
  "rustc",
  "rustup",
  "docker",
  "deno",
  "bun",
  "ruby",
  "perl",
  "gcc",
  "g++",
  "clang",
  "make",
  "cmake",
  "tsc",
  "yarn",
  "pnpm",
  "uv",
  "poetry",
  "terraform",
  "kubectl",
  "gh",
  "npm",
  "npx",
  "php",
  "dotnet",
  "swift",
  "kotlin",
  "scala",
  "mvn",
  "gradle",
  "pip",
  "pip3",
  "bash",
  "zsh",
]);

export function isVersionQuery(words: Field[]): boolean {
  const name = words[0]?.value ?? "";
  return VERSION_ONLY.has(name) && words.length === 2 && VERSION_FLAGS.has(words[1]?.value ?? "");
}

/** Package and platform tools whose listing subcommands only report. */
export function checkToolReport(name: string, words: Field[]): ReadOnlyVerdict | undefined {
  const args = words.slice(1).map((w) => w.value);
  if (words.slice(1).some((w) => !w.literal || w.glob)) return undefined;
  const sub = args[0];
  switch (name) {
    case "npm":
      if (
        sub === "ls" ||
        sub === "list" ||
        sub === "ll" ||
        sub === "la" ||
        sub === "view" ||
        sub === "info" ||
        sub === "show" ||
        sub === "outdated" ||
        sub === "root" ||
        sub === "prefix" ||
        sub === "explain" ||
        sub === "why"
      )
        return readOnly();
      if (sub === "config" && (args[1] === "get" || args[1] === "list" || args[1] === "ls")) return readOnly();
      if (sub === "version" && args.length === 1) return readOnly();
      return undefined;
    case "pip":
    case "pip3":
      return sub === "list" || sub === "show" || sub === "freeze" || sub === "check" ? readOnly() : undefined;
    case "docker":
      return sub === "ps" || sub === "images" || sub === "version" || sub === "info" ? readOnly() : undefined;
    case "go":
      // `go env NAME` prints settings; -w/-u write them, and GOAUTH may hold a credential command.
      if (sub === "env")
        return args.slice(1).every((a) => a === "-json" || (/^[A-Z][A-Z0-9_]*$/.test(a) && a !== "GOAUTH"))
          ? readOnly()
          : undefined;
      return sub === "version" || sub === "help" ? readOnly() : undefined;
    case "top":
      // Only batch mode: interactive top takes keys that kill processes and write ~/.toprc.
      return args.some((a) => /^-[A-Za-z1]*b/.test(a)) ? readOnly() : undefined;
    case "history":
      // Listing only: -c, -d, -w, -a, -r, -n, -s and -p change or write the history.
      return args.length === 0 || (args.length === 1 && /^\d+$/.test(args[0] ?? "")) ? readOnly() : undefined;
    case "gh": {
      const reads: Record<string, string[]> = {
        pr: ["list", "view", "status", "diff", "checks"],
        issue: ["list", "view", "status"],
        repo: ["view"],
        run: ["list", "view"],
        release: ["list", "view"],
        auth: ["status"],
      };
      return sub && args[1] && reads[sub]?.includes(args[1]) && !args.includes("--web") ? readOnly() : undefined;
    }
    default:
      return undefined;
  }
}
