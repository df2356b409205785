// sed is read-only only without -i and with a script of printing commands: `w`/`W` write files,
// `e` and the `e` flag of `s` run commands, `r`/`R` read arbitrary files, -f hides the script.

import { type Field, matchesLong, optionValueText, parseArgs } from "../words/index.js";
import { couldExpandToFlag, notReadOnly, type ReadOnlyVerdict, readOnly, smuggledOption } from "./verdict.js";

export function checkSedReadOnly(words: Field[]): ReadOnlyVerdict {
  for (const word of words.slice(1)) {
    // -i takes an optional glued suffix, so it hides inside clusters like -ni.bak or -Ei.
    if (/^-[^-]*i/.test(word.value) && !/^-[^-]*[ef]/.test(word.value.split("i")[0] ?? "")) {
      return smuggledOption("sed -i edits files in place", "-i");
    }
    if (word.value.startsWith("--") && matchesLong(word.value, "in-place", 2))
      return smuggledOption("sed --in-place edits files", "--in-place");
  }
  const parsed = parseArgs(words, 1, { shortWithValue: "efl", longWithValue: ["expression", "file", "line-length"] });
  if (parsed.options.some((o) => o.flag === "-f" || (o.flag.startsWith("--") && matchesLong(o.flag, "file", 2)))) {
    return smuggledOption("sed -f runs a script from a file", "-f");
  }
  const sandboxed = parsed.options.some((o) => o.flag === "--sandbox");
  const scripts: Field[] = [];
  for (const option of parsed.options) {
    if (option.flag === "-e" || (option.flag.startsWith("--") && matchesLong(option.flag, "expression", 2))) {
      const value = option.value;
      if (value === undefined) return notReadOnly("sed -e without a script");
      scripts.push(
        typeof value === "string" ? { value, literal: true, glob: false, quoted: true, source: value } : value,
      );
    }
  }
  let operands = parsed.operands;
  if (scripts.length === 0) {
    const first = operands[0];
    if (!first) return notReadOnly("sed without a script");
    scripts.push(first);
    operands = operands.slice(1);
  }
  for (const script of scripts) {
    if (!script.literal) return notReadOnly("the sed script is known only at run time");
    if (!sandboxed) {
      const problem = unsafeSedCommand(script.value);
      // w, e and r write files, run commands and read any file: no rule for sed grants them.
      if (problem)
        return /writes|runs|reads/.test(problem) ? smuggledOption(problem, script.value) : notReadOnly(problem);
    }
  }
  if (operands.some(couldExpandToFlag)) return notReadOnly("an unquoted glob or variable could become a sed flag");
  return readOnly(operands);
}

const PLAIN_COMMANDS = new Set([..."pPdDnNgGhHxlz=qQF{}"]);

/** Returns why the script is not read-only, or undefined when every command only prints. */
export function unsafeSedCommand(script: string): string | undefined {
  let i = 0;
  const skipBlank = () => {
    while (i < script.length && /[\s;]/.test(script[i] as string)) i += 1;
  };
  const readDelimited = (delimiter: string): boolean => {
    while (i < script.length) {
      const ch = script[i] as string;
      if (ch === "\\") i += 2;
      else if (ch === delimiter) {
        i += 1;
        return true;
      } else if (ch === "\n") return false;
      else i += 1;
    }
    return false;
  };
  const readAddress = (): boolean => {
    const ch = script[i];
    if (ch === undefined) return true;
    if (/\d/.test(ch)) {
      while (i < script.length && /[\d~]/.test(script[i] as string)) i += 1;
    } else if (ch === "$") i += 1;
    else if (ch === "/") {
      i += 1;
      if (!readDelimited("/")) return false;
      while (script[i] === "I" || script[i] === "M") i += 1;
    } else if (ch === "\\") {
      const delimiter = script[i + 1];
      if (!delimiter) return false;
      i += 2;
      if (!readDelimited(delimiter)) return false;
    }
    return true;
  };
  while (true) {
    skipBlank();
    if (i >= script.length) return undefined;
    if (!readAddress()) return "sed address not understood";
    if (script[i] === ",") {
      i += 1;
      if (script[i] === "+" || script[i] === "~") i += 1;
      if (!readAddress()) return "sed address not understood";
    }
    while (script[i] === " " || script[i] === "!") i += 1;
    const command = script[i];
    if (command === undefined) return undefined;
    i += 1;
    if (PLAIN_COMMANDS.has(command)) {
      if (command === "q" || command === "Q") while (/\d|\s/.test(script[i] ?? "x") && script[i] !== "\n") i += 1;
      continue;
    }
    if (command === "s" || command === "y") {
      const delimiter = script[i];
      if (!delimiter || delimiter === "\n" || delimiter === "\\") return "sed substitution not understood";
      i += 1;
      if (!readDelimited(delimiter) || !readDelimited(delimiter)) return "sed substitution not understood";
      if (command === "y") continue;
      while (i < script.length && !/[;\n}]/.test(script[i] as string)) {
        const flag = script[i] as string;
        if (flag === "e") return "the sed e flag runs the pattern space as a command";
        if (flag === "w" || flag === "W") return "the sed w flag writes a file";
        if (!/[gpiImM0-9\s]/.test(flag)) return `sed substitution flag ${flag} not understood`;
        i += 1;
      }
      continue;
    }
    if (command === "b" || command === "t" || command === "T" || command === ":") {
      while (i < script.length && !/[;\n]/.test(script[i] as string)) i += 1;
      continue;
    }
    if (command === "a" || command === "i" || command === "c") {
      // Text commands print their text; it runs to the end of the line.
      while (i < script.length && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
      continue;
    }
    if (command === "w" || command === "W") return "the sed w command writes a file";
    if (command === "e") return "the sed e command runs a shell command";
    if (command === "r" || command === "R") return "the sed r command reads an arbitrary file";
    return `sed command ${command} not understood`;
  }
}

export function sedScriptsFromOptions(words: Field[]): string[] {
  const parsed = parseArgs(words, 1, { shortWithValue: "efl", longWithValue: ["expression", "file", "line-length"] });
  const scripts = parsed.options
    .filter((o) => o.flag === "-e" || (o.flag.startsWith("--") && matchesLong(o.flag, "expression", 2)))
    .map((o) => optionValueText(o.value) ?? "");
  if (scripts.length === 0 && parsed.operands[0]) scripts.push(parsed.operands[0].value);
  return scripts;
}
