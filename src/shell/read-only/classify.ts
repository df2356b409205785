// Read-only classification of one unwrapped command: search, read and list commands, and
// commands with no effect beyond their output, with only read-only flags. Everything not
// recognised here is not read-only, so it asks in default mode.

import { commandBaseName, type Field, parseArgs } from "../words/index.js";
import {
  checkAwkReadOnly,
  checkDateReadOnly,
  checkFindReadOnly,
  checkJqReadOnly,
  checkToolReport,
  isVersionQuery,
} from "./custom.js";
import { checkGitReadOnly } from "./git.js";
import { checkSedReadOnly } from "./sed.js";
import { checkSimpleReadOnly, SIMPLE_READ_ONLY } from "./table.js";
import { notReadOnly, type ReadOnlyVerdict, readOnly, smuggledOption } from "./verdict.js";

export function classifyReadOnly(words: Field[], depth = 0): ReadOnlyVerdict {
  const head = words[0];
  if (!head) return readOnly();
  if (!head.literal) return notReadOnly("the command name is known only at run time");
  // A path to a program (`./ls`, `/tmp/x/cat`) may be anything; only bare names are looked up.
  if (head.value.includes("/") || head.glob) return notReadOnly("the command is given by path");
  const name = head.value;
  if (isVersionQuery(words)) return readOnly();
  switch (name) {
    case "git":
      return checkGitReadOnly(words);
    case "sed":
      return checkSedReadOnly(words);
    case "awk":
    case "gawk":
    case "mawk":
      return checkAwkReadOnly(words);
    case "jq":
      return checkJqReadOnly(words);
    case "find":
      return checkFindReadOnly(words);
    case "date":
      return checkDateReadOnly(words);
    case "xargs":
      return checkXargsReadOnly(words, depth);
    case "command":
      return words.length === 3 && (words[1]?.value === "-v" || words[1]?.value === "-V")
        ? readOnly()
        : notReadOnly("command runs another command");
    case "cd":
    case "pushd": {
      const target = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.value));
      if (target.length > 1) return notReadOnly(`${name} with several operands`);
      return target[0] ? readOnly([target[0]]) : notReadOnly(`${name} to the home directory`);
    }
  }
  // BSD-style `ps e`/`ps auxe` print every process's environment (secrets).
  if (name === "ps") {
    const parsed = parseArgs(words, 1, {
      shortWithValue: "oOpuUgGtCq",
      longWithValue: ["sort", "format", "pid", "ppid", "user", "group", "cols", "columns", "rows", "width"],
    });
    const environment = parsed.operands.find((w) => /^[a-zA-Z]*e/.test(w.value) && !/^\d/.test(w.value));
    if (environment) return smuggledOption("ps with the e flag prints process environments", environment.value);
  }
  const report = checkToolReport(name, words);
  if (report) return report;
  const spec = SIMPLE_READ_ONLY[name];
  if (spec) return checkSimpleReadOnly(name, spec, words);
  return notReadOnly(`${commandBaseName(name)} is not a known read-only command`);
}

/**
 * xargs appends words read from stdin to its command, and those can begin with `-`: only a
 * read-only command whose every flag is harmless may receive them.
 */
function checkXargsReadOnly(words: Field[], depth: number): ReadOnlyVerdict {
  const parsed = parseArgs(words, 1, {
    shortWithValue: "adEILnPs",
    longWithValue: [
      "arg-file",
      "delimiter",
      "max-args",
      "max-procs",
      "max-chars",
      "process-slot-var",
      "replace",
      "eof",
    ],
    stopAtOperand: true,
  });
  if (parsed.options.some((o) => o.flag === "-a" || o.flag.startsWith("--arg")))
    return notReadOnly("xargs -a reads arguments from a file");
  const inner = words.slice(parsed.firstOperandIndex);
  if (inner.length === 0) return readOnly();
  if (depth > 3) return notReadOnly("nested xargs");
  const innerName = inner[0]?.value ?? "";
  const spec = SIMPLE_READ_ONLY[innerName];
  if (!spec || spec.unsafeShort || spec.unsafeLong)
    return notReadOnly(`xargs feeds arbitrary arguments to ${innerName}`);
  const verdict = classifyReadOnly(inner, depth + 1);
  return verdict.readOnly ? readOnly(verdict.paths) : verdict;
}
