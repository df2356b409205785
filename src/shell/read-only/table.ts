// Commands that only read and print, with the flags that would make them do more. Each entry is
// an allowlist of the command and a denylist of its writing or executing flags; anything not
// listed here is not read-only.

import { type Field, matchesLong, type OptionSpec, parseArgs } from "../words/index.js";
import {
  couldExpandToFlag,
  couldExpandToSeveral,
  notReadOnly,
  type ReadOnlyVerdict,
  readOnly,
  smuggledOption,
} from "./verdict.js";

export interface SimpleReadOnlySpec {
  /** What the operands are: files read, a pattern then files, or nothing on disk. */
  operands: "paths" | "pattern-then-paths" | "none" | "no-operands";
  unsafeShort?: string;
  unsafeLong?: readonly string[];
  shortWithValue?: string;
  longWithValue?: readonly string[];
  /** Options after which every operand is a path (the pattern came from -e/-f). */
  patternFlags?: readonly string[];
  /** Most operands a read-only call may have (uniq IN OUT writes OUT). */
  maxOperands?: number;
  /** Options whose value is a file the command reads: checked like operands. */
  pathOptions?: readonly string[];
}

const PATHS: SimpleReadOnlySpec = { operands: "paths" };
const NONE: SimpleReadOnlySpec = { operands: "none" };
const NO_OPERANDS: SimpleReadOnlySpec = { operands: "no-operands" };

const GREP: SimpleReadOnlySpec = {
  operands: "pattern-then-paths",
  shortWithValue: "efmABCdD",
  longWithValue: [
    "regexp",
    "file",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "directories",
    "devices",
    "label",
    "include",
    "exclude",
    "exclude-from",
    "exclude-dir",
    "binary-files",
    "color",
    "colour",
  ],
  patternFlags: ["-e", "-f", "--regexp", "--file"],
  pathOptions: ["-f", "--file", "--exclude-from"],
};

export const SIMPLE_READ_ONLY: Record<string, SimpleReadOnlySpec> = {
  cat: PATHS,
  tac: PATHS,
  head: { operands: "paths", shortWithValue: "nc", longWithValue: ["lines", "bytes"] },
  tail: {
    operands: "paths",
    shortWithValue: "ncs",
    longWithValue: ["lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"],
  },
  wc: { operands: "paths", longWithValue: ["files0-from"], pathOptions: ["--files0-from"] },
  stat: { operands: "paths", shortWithValue: "c", longWithValue: ["format", "printf"] },
  file: {
    operands: "paths",
    unsafeShort: "C",
    unsafeLong: ["compile"],
    shortWithValue: "mFfeP",
    longWithValue: ["magic-file", "separator", "files-from", "exclude", "parameter"],
    pathOptions: ["-m", "-f", "--magic-file", "--files-from"],
  },
  strings: { operands: "paths", shortWithValue: "nteT", longWithValue: ["bytes", "radix", "encoding", "target"] },
  ls: {
    operands: "paths",
    shortWithValue: "ITw",
    longWithValue: [
      "ignore",
      "hide",
      "tabsize",
      "width",
      "format",
      "sort",
      "time",
      "time-style",
      "color",
      "block-size",
      "quoting-style",
      "indicator-style",
    ],
  },
  tree: {
    operands: "paths",
    unsafeShort: "oR",
    unsafeLong: ["output"],
    shortWithValue: "LIPH",
    longWithValue: ["filelimit", "timefmt", "sort", "charset", "fromfile"],
  },
  du: {
    operands: "paths",
    shortWithValue: "dBtX",
    longWithValue: [
      "max-depth",
      "block-size",
      "threshold",
      "exclude",
      "exclude-from",
      "files0-from",
      "time",
      "time-style",
    ],
    pathOptions: ["-X", "--exclude-from", "--files0-from"],
  },
  df: { operands: "paths", shortWithValue: "BtxF", longWithValue: ["block-size", "type", "exclude-type", "output"] },
  realpath: { operands: "paths", longWithValue: ["relative-to", "relative-base"] },
  readlink: PATHS,
  basename: NONE,
  dirname: NONE,
  md5sum: PATHS,
  sha1sum: PATHS,
  sha224sum: PATHS,
  sha256sum: PATHS,
  sha384sum: PATHS,
  sha512sum: PATHS,
  b2sum: PATHS,
  cksum: PATHS,
  cmp: { operands: "paths", shortWithValue: "in", longWithValue: ["ignore-initial", "bytes"] },
  diff: {
    operands: "paths",
    shortWithValue: "CUIxXSFWL",
    longWithValue: [
      "context",
      "unified",
      "ignore-matching-lines",
      "exclude",
      "exclude-from",
      "starting-file",
      "show-function-line",
      "label",
      "width",
      "line-format",
      "from-file",
      "to-file",
      "palette",
      "color",
    ],
    pathOptions: ["-X", "--exclude-from", "--from-file", "--to-file"],
  },
  comm: PATHS,
  cut: {
    operands: "paths",
    shortWithValue: "bcdf",
    longWithValue: ["bytes", "characters", "delimiter", "fields", "output-delimiter"],
  },
  sort: {
    operands: "paths",
    unsafeShort: "o",
    unsafeLong: ["output", "compress-program", "random-source"],
    shortWithValue: "kStTo",
    longWithValue: [
      "key",
      "buffer-size",
      "field-separator",
      "temporary-directory",
      "output",
      "compress-program",
      "files0-from",
      "parallel",
      "batch-size",
      "sort",
      "random-source",
    ],
    pathOptions: ["--files0-from"],
  },
  uniq: {
    operands: "paths",
    shortWithValue: "fsw",
    longWithValue: ["skip-fields", "skip-chars", "check-chars", "group", "all-repeated"],
    maxOperands: 1,
  },
  tr: NONE,
  nl: { operands: "paths", shortWithValue: "bdfhilnsvw" },
  fold: { operands: "paths", shortWithValue: "w" },
  fmt: { operands: "paths", shortWithValue: "pwg" },
  paste: { operands: "paths", shortWithValue: "d" },
  join: { operands: "paths", shortWithValue: "aejotv12" },
  column: { operands: "paths", shortWithValue: "csoNERWHlrip" },
  expand: { operands: "paths", shortWithValue: "t" },
  unexpand: { operands: "paths", shortWithValue: "t" },
  rev: PATHS,
  od: { operands: "paths", shortWithValue: "AjNSt" },
  hexdump: { operands: "paths", shortWithValue: "efns", pathOptions: ["-f"] },
  xxd: { operands: "paths", unsafeShort: "r", unsafeLong: ["revert"], shortWithValue: "cglosn", maxOperands: 1 },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    operands: "pattern-then-paths",
    unsafeLong: ["pre", "hostname-bin"],
    shortWithValue: "efgtTmABCMjrEd",
    longWithValue: [
      "regexp",
      "file",
      "glob",
      "iglob",
      "type",
      "type-not",
      "type-add",
      "type-clear",
      "max-count",
      "after-context",
      "before-context",
      "context",
      "max-columns",
      "threads",
      "replace",
      "encoding",
      "max-depth",
      "pre",
      "pre-glob",
      "sort",
      "sortr",
      "colors",
      "color",
      "path-separator",
      "max-filesize",
      "ignore-file",
      "context-separator",
      "field-match-separator",
      "field-context-separator",
      "dfa-size-limit",
      "regex-size-limit",
      "engine",
    ],
    patternFlags: ["-e", "-f", "--regexp", "--file", "--files", "--type-list"],
    pathOptions: ["-f", "--file", "--ignore-file"],
  },
  ag: {
    operands: "pattern-then-paths",
    unsafeLong: ["pager"],
    shortWithValue: "ABCGgmp",
    longWithValue: [
      "after",
      "before",
      "context",
      "file-search-regex",
      "ignore",
      "max-count",
      "path-to-ignore",
      "pager",
      "depth",
    ],
  },
  ack: {
    operands: "pattern-then-paths",
    unsafeLong: ["pager", "output"],
    shortWithValue: "ABCm",
    longWithValue: ["after-context", "before-context", "context", "max-count", "type", "output", "pager"],
  },
  fd: {
    operands: "pattern-then-paths",
    unsafeShort: "xX",
    unsafeLong: ["exec", "exec-batch"],
    shortWithValue: "deEtScjx",
    longWithValue: [
      "max-depth",
      "extension",
      "exclude",
      "type",
      "size",
      "changed-within",
      "changed-before",
      "threads",
      "exec",
      "exec-batch",
      "search-path",
      "base-directory",
    ],
  },
  which: NONE,
  whereis: NONE,
  locate: NONE,
  type: NONE,
  echo: NONE,
  true: NONE,
  false: NONE,
  ":": NONE,
  sleep: NONE,
  seq: { operands: "none", shortWithValue: "fs" },
  id: NONE,
  whoami: NO_OPERANDS,
  groups: NONE,
  uname: NO_OPERANDS,
  arch: NO_OPERANDS,
  uptime: NO_OPERANDS,
  free: NO_OPERANDS,
  nproc: NO_OPERANDS,
  lscpu: NO_OPERANDS,
  getconf: NONE,
  tty: NO_OPERANDS,
  locale: NONE,
  pwd: NO_OPERANDS,
  ps: {
    operands: "none",
    // macOS `ps -E` prints each process's environment, as BSD-style `ps e` does (see classify.ts).
    unsafeShort: "E",
    shortWithValue: "oOpuUgGtCq",
    longWithValue: ["sort", "format", "pid", "ppid", "user", "group", "cols", "columns", "rows", "width"],
  },
  pgrep: {
    operands: "none",
    shortWithValue: "dgGPsuUtF",
    longWithValue: [
      "delimiter",
      "pgroup",
      "group",
      "parent",
      "session",
      "euid",
      "uid",
      "terminal",
      "pidfile",
      "ns",
      "nslist",
      "signal",
    ],
  },
  ss: {
    operands: "none",
    unsafeShort: "KD",
    unsafeLong: ["kill", "diag"],
    shortWithValue: "fAF",
    longWithValue: ["family", "query", "filter"],
  },
  netstat: NONE,
  lsof: NONE,
  hostname: { operands: "no-operands", unsafeShort: "Fb", unsafeLong: ["file", "boot"] },
  printf: { operands: "none", unsafeShort: "v" },
  test: NONE,
  "[": NONE,
  "[[": NONE,
  expr: NONE,
  cal: NONE,
  // macOS base64 writes with `-o FILE` and reads `-i FILE` (GNU's `-i` is a flag: its file is
  // then an operand, checked either way).
  base64: {
    operands: "paths",
    unsafeShort: "o",
    unsafeLong: ["output"],
    shortWithValue: "wbi",
    longWithValue: ["wrap", "break", "input"],
    pathOptions: ["-i", "--input"],
  },
  zcat: PATHS,
  nm: PATHS,
  readelf: PATHS,
  objdump: PATHS,
};

export function checkSimpleReadOnly(name: string, spec: SimpleReadOnlySpec, words: Field[]): ReadOnlyVerdict {
  const optionSpec: OptionSpec = { shortWithValue: spec.shortWithValue ?? "", longWithValue: spec.longWithValue ?? [] };
  const parsed = parseArgs(words, 1, optionSpec);
  for (const option of parsed.options) {
    const isLong = option.flag.startsWith("--");
    if (!isLong && spec.unsafeShort?.includes(option.flag.slice(1))) {
      return smuggledOption(`${name} ${option.flag} writes or runs something`, option.flag);
    }
    // getopt_long takes any unambiguous prefix, down to one letter (`sort --o=f` is --output).
    if (isLong && spec.unsafeLong?.some((long) => matchesLong(option.flag, long, 1))) {
      return smuggledOption(`${name} ${option.flag} writes or runs something`, option.flag);
    }
  }
  const hasUnsafeFlags = Boolean(spec.unsafeShort || spec.unsafeLong);
  const operands = parsed.operands;
  if (hasUnsafeFlags && operands.some(couldExpandToFlag)) {
    return notReadOnly(`an unquoted glob or variable could become a flag of ${name}`);
  }
  if (spec.operands === "no-operands" && operands.length > 0)
    return notReadOnly(`${name} with operands changes settings`);
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) {
    return smuggledOption(
      `${name} with ${operands.length} operands writes its last one`,
      operands[operands.length - 1]?.value ?? "",
    );
  }
  // `uniq *` with two matching files writes the second: a word that may become several arguments
  // can reach the output position, whatever the count as written.
  if (spec.maxOperands !== undefined && operands.some(couldExpandToSeveral)) {
    return notReadOnly(`a glob or expansion could reach ${name}'s output operand`);
  }
  const optionPaths: Field[] = [];
  for (const option of parsed.options) {
    const named = spec.pathOptions?.some(
      (flag) =>
        flag === option.flag ||
        (flag.startsWith("--") && option.flag.startsWith("--") && matchesLong(option.flag, flag.slice(2), 3)),
    );
    if (!named) continue;
    const value = option.value;
    if (value === undefined) return notReadOnly(`${name} ${option.flag} without its file`);
    optionPaths.push(
      typeof value === "string" ? { value, literal: true, glob: false, quoted: false, source: value } : value,
    );
  }
  if (spec.operands === "none" || spec.operands === "no-operands") return readOnly(optionPaths);
  if (spec.operands === "pattern-then-paths") {
    const patternGiven = parsed.options.some((o) =>
      spec.patternFlags?.some(
        (flag) => flag === o.flag || (flag.startsWith("--") && matchesLong(o.flag, flag.slice(2), 4)),
      ),
    );
    return readOnly([...optionPaths, ...(patternGiven ? operands : operands.slice(1))]);
  }
  return readOnly([...optionPaths, ...operands]);
}
