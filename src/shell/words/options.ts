// getopt-style option scanning over recovered words, shared by wrapper unwrapping and the
// read-only flag checks. GNU tools accept unambiguous prefixes of long options (`--co` is
// `--compress-program` to sort), so long options are compared by prefix where it matters.
import type { Field } from "./field.js";

export interface OptionSpec {
  /** Short options that take a value (`-n 10` or `-n10`). */
  shortWithValue?: string;
  /** Long options (without `--`) that take a value (`--foo bar` or `--foo=bar`). */
  longWithValue?: readonly string[];
  /** Stop at the first operand (POSIX); otherwise options may follow operands (GNU). */
  stopAtOperand?: boolean;
}

export interface ParsedOption {
  /** `-x` for short options, `--name` for long ones, as written (long ones maybe abbreviated). */
  flag: string;
  value: Field | string | undefined;
  index: number;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: Field[];
  /** Index in `words` of the first operand, or words.length. */
  firstOperandIndex: number;
  /** True when some word is known only at run time, so its role cannot be known. */
  dynamic: boolean;
}

export function matchesLong(written: string, full: string, minimum = 3): boolean {
  const name = written.replace(/^--/, "").split("=")[0] ?? "";
  if (name === full) return true;
  return name.length >= Math.min(minimum, full.length) && full.startsWith(name);
}

export function parseArgs(words: Field[], start: number, spec: OptionSpec): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: Field[] = [];
  let firstOperandIndex = words.length;
  let dynamic = false;
  let onlyOperands = false;
  for (let i = start; i < words.length; i += 1) {
    const word = words[i] as Field;
    if (!word.literal) dynamic = true;
    const text = word.value;
    if (onlyOperands || text === "-" || !text.startsWith("-") || (word.glob && !word.literal)) {
      if (firstOperandIndex === words.length) firstOperandIndex = i;
      operands.push(word);
      if (spec.stopAtOperand) onlyOperands = true;
      continue;
    }
    if (text === "--") {
      onlyOperands = true;
      continue;
    }
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const name = eq === -1 ? text : text.slice(0, eq);
      const takesValue = (spec.longWithValue ?? []).some((long) => matchesLong(name, long));
      if (eq !== -1) options.push({ flag: name, value: text.slice(eq + 1), index: i });
      else if (takesValue) {
        options.push({ flag: name, value: words[i + 1], index: i });
        i += 1;
      } else options.push({ flag: name, value: undefined, index: i });
      continue;
    }
    for (let k = 1; k < text.length; k += 1) {
      const letter = text[k] as string;
      if ((spec.shortWithValue ?? "").includes(letter)) {
        const rest = text.slice(k + 1);
        if (rest !== "") options.push({ flag: `-${letter}`, value: rest, index: i });
        else {
          options.push({ flag: `-${letter}`, value: words[i + 1], index: i });
          i += 1;
        }
        break;
      }
      options.push({ flag: `-${letter}`, value: undefined, index: i });
    }
  }
  return { options, operands, firstOperandIndex, dynamic };
}

export function optionValueText(value: Field | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : value.value;
}
