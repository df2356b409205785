// Code a command runs that its words do not show: a script file given to `source`, an
// interpreter's inline program (`python3 -c`, `perl -e`, `node -e`, an awk program that calls
// system()), or a program read from standard input. The analysis cannot follow such code, so it
// says so; it also hands over the program's string literals, where a shell command hidden in the
// program usually sits (`os.system("rm -rf x")`), for deny rules to be tried on.
import { commandBaseName, type Field } from "../words/index.js";

export interface HiddenCode {
  /** Why code runs that the analysis cannot read. */
  reason: string;
  /** Text inside the program that may be shell code, for deny rules only. */
  denyScripts: string[];
  /** The program comes on standard input (a heredoc or a literal pipe may show it). */
  fromStdin: boolean;
}

/** Interpreters, the short flags that take an inline program, and long ones that do too. */
interface InterpreterSpec {
  inline: string;
  inlineLong?: readonly string[];
  /** Options that take a value (so the value is not the script file). */
  withValue?: string;
  /** Options after which the interpreter runs a module or file it names: not inline code. */
  module?: string;
}

const PYTHON: InterpreterSpec = { inline: "c", withValue: "WXQ", module: "m" };
const INTERPRETERS: Array<[RegExp, InterpreterSpec]> = [
  [/^(python[0-9.]*|pypy[0-9.]*)$/, PYTHON],
  [/^perl[0-9.]*$/, { inline: "eE", withValue: "ICMmx" }],
  [/^ruby[0-9.]*$/, { inline: "e", withValue: "ICrEF" }],
  [/^(node|nodejs)$/, { inline: "ep", inlineLong: ["--eval", "--print"], withValue: "r" }],
  [/^bun$/, { inline: "e", inlineLong: ["--eval", "--print"] }],
  [/^php[0-9.]*$/, { inline: "rRBE", withValue: "cdz" }],
  [/^(lua|luajit)[0-9.]*$/, { inline: "e", withValue: "l" }],
  [/^Rscript$/, { inline: "e" }],
  [/^osascript$/, { inline: "e" }],
  [/^(pwsh|powershell)$/, { inline: "cC", inlineLong: ["-Command", "-command"] }],
];

const STDIN_DEVICES = new Set(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

/** An interpreter the analysis knows: given a program (inline or as a file), it runs it. */
export function isInterpreterName(name: string): boolean {
  return INTERPRETERS.some(([pattern]) => pattern.test(name));
}

/** The awk family: its program can start commands (`system()`, pipes). */
export const AWKS: ReadonlySet<string> = new Set(["awk", "gawk", "mawk", "nawk"]);

/** The code one command (one view of it) runs without showing it, or undefined. */
export function hiddenCodeOf(words: Field[]): HiddenCode | undefined {
  const head = words[0];
  if (!head?.literal) return undefined;
  const name = commandBaseName(head.value);
  if (name === "source" || name === ".") {
    const file = words[1]?.value === "--" ? words[2] : words[1];
    if (!file || STDIN_DEVICES.has(file.value)) return undefined; // stdin: unwrapped as a shell reading it
    return { reason: `${name} runs the script file ${file.value}`, denyScripts: [], fromStdin: false };
  }
  if (AWKS.has(name)) return awkHiddenCode(name, words);
  if (name === "deno" && words[1]?.value === "eval") return inline(name, words[2]);
  const spec = INTERPRETERS.find(([pattern]) => pattern.test(name))?.[1];
  return spec ? interpreterHiddenCode(name, spec, words) : undefined;
}

function interpreterHiddenCode(name: string, spec: InterpreterSpec, words: Field[]): HiddenCode | undefined {
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] as Field;
    const text = word.value;
    if (!word.literal)
      return { reason: `${name} is given an argument known only at run time`, denyScripts: [], fromStdin: false };
    if (text === "-" || text === "--") return stdinProgram(name);
    const long = spec.inlineLong?.find((flag) => text === flag || text.startsWith(`${flag}=`));
    if (long) return inline(name, text === long ? words[i + 1] : { ...word, value: text.slice(long.length + 1) });
    if (!text.startsWith("-")) return undefined; // a script file: its code is on disk, like any program
    if (text.startsWith("--")) continue;
    for (let k = 1; k < text.length; k += 1) {
      const letter = text[k] as string;
      if (spec.inline.includes(letter)) {
        const rest = text.slice(k + 1);
        return inline(name, rest !== "" ? { ...word, value: rest } : words[i + 1]);
      }
      if (spec.module?.includes(letter)) return undefined;
      if (spec.withValue?.includes(letter)) {
        if (k === text.length - 1) i += 1;
        break;
      }
    }
  }
  return stdinProgram(name);
}

function awkHiddenCode(name: string, words: Field[]): HiddenCode | undefined {
  for (let i = 1; i < words.length; i += 1) {
    const text = words[i]?.value ?? "";
    // Every way an awk takes its program from a file: -f, gawk's -E/-i/-l/--exec/--include/--load, mawk's
    // `-W exec` (and any other -W word, which differ per awk).
    if (/^-(?:[fEil]|W)/.test(text) || /^--(?:file|source|exec|include|load)/.test(text) || text === "-e")
      return { reason: `${name} runs a program from a file`, denyScripts: [], fromStdin: false };
    if (text === "-F" || text === "-v") {
      i += 1;
      continue;
    }
    if (text.startsWith("-") && text !== "-") continue;
    const program = words[i] as Field;
    if (!program.literal) return inline(name, program);
    // Only an awk program that can start commands hides code; printing ones hide nothing.
    return /\bsystem\s*\(|\|/.test(program.value) ? inline(name, program) : undefined;
  }
  return undefined;
}

function inline(name: string, program: Field | undefined): HiddenCode {
  const reason = `${name} runs an inline program the analysis cannot follow`;
  if (!program?.literal) return { reason, denyScripts: [], fromStdin: false };
  return { reason, denyScripts: stringLiterals(program.value), fromStdin: false };
}

function stdinProgram(name: string): HiddenCode {
  return { reason: `${name} runs a program read from standard input`, denyScripts: [], fromStdin: true };
}

/** The quoted strings of a program's text (single, double, backtick), unescaped simply. */
export function stringLiterals(program: string): string[] {
  const found: string[] = [];
  for (const match of program.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/gs)) {
    const text = match[1] ?? match[2] ?? match[3] ?? "";
    if (text.trim() !== "") found.push(text.replace(/\\(["'`\\])/g, "$1"));
  }
  return found;
}
