// A sed `s/pattern/replacement/[g]` script, read only when its meaning can be reproduced exactly in
// process; anything else is refused (undefined) and the command goes through ordinary Bash
// approval. What is accepted, and why each limit keeps sed's meaning:
// - the pattern: literal characters, `.`, bracket expressions without classes or backslashes,
//   `^` first and `$` last, and at most ONE quantifier (`*`; `+`/`?` with -E). With a single
//   quantifier JavaScript's greedy search finds the same match as POSIX's leftmost-longest rule;
//   groups, alternation, back-references and intervals are refused. A pattern that can match the
//   empty string is refused too (sed and JavaScript place empty matches differently under `g`).
// - the replacement: literal text, `&` (the match), `\&`, `\\`, `\n` and the escaped delimiter.
// - flags: none or `g`. No `I`, no occurrence number, no `w`/`e`/`p`, nothing after the flags.
// The substitution runs line by line, as sed does.

export interface Substitution {
  /** JavaScript source of the pattern (used with the `u` and `s` flags). */
  pattern: string;
  /** The replacement as pieces: text, or the whole match. */
  replacement: Array<{ text: string } | { match: true }>;
  global: boolean;
  /** The pattern uses `.` or a bracket expression: its meaning depends on the locale for non-ASCII text. */
  localeSensitive: boolean;
}

const JS_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

function literal(char: string): string {
  return JS_SPECIAL.test(char) ? `\\${char}` : char;
}

/** Splits `s<d>pattern<d>replacement<d>flags` at unescaped delimiters. */
function splitScript(
  script: string,
): { delimiter: string; pattern: string; replacement: string; flags: string } | undefined {
  if (script[0] !== "s" || script.length < 4) return undefined;
  const delimiter = script[1] as string;
  if (delimiter === "\\" || delimiter === "\n" || /[A-Za-z0-9\s]/.test(delimiter)) return undefined;
  const pieces: string[] = [];
  let current = "";
  let inBracket = false;
  for (let i = 2; i < script.length; i++) {
    const char = script[i] as string;
    if (pieces.length === 2) {
      current += char;
      continue;
    }
    if (char === "\\") {
      const next = script[i + 1];
      if (next === undefined) return undefined;
      current += char + next;
      i++;
      continue;
    }
    if (pieces.length === 0 && char === "[" && !inBracket) inBracket = true;
    else if (pieces.length === 0 && char === "]" && inBracket && !/\[\^?$/.test(current)) inBracket = false;
    if (char === delimiter) {
      // The delimiter inside a bracket expression is read differently by sed implementations.
      if (inBracket) return undefined;
      pieces.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  if (pieces.length !== 2) return undefined;
  return { delimiter, pattern: pieces[0] as string, replacement: pieces[1] as string, flags: current };
}

/** A bracket expression `[...]` from `start` (at the `[`): its JavaScript class and its end. */
function bracket(pattern: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === "^") {
    negated = true;
    i++;
  }
  const members: string[] = [];
  // A `]` right after `[` or `[^` is a member, not the end.
  if (pattern[i] === "]") {
    members.push("]");
    i++;
  }
  for (; i < pattern.length && pattern[i] !== "]"; i++) members.push(pattern[i] as string);
  if (i >= pattern.length || members.length === 0) return undefined;
  if (members.some((char) => char === "\\" || char === "[")) return undefined;
  let source = "";
  for (let k = 0; k < members.length; k++) {
    const char = members[k] as string;
    const isRange = char === "-" && k > 0 && k < members.length - 1;
    source += isRange ? "-" : /[\]\\^-]/.test(char) ? `\\${char}` : char;
  }
  return { source: `[${negated ? "^" : ""}${source}]`, end: i };
}

function translatePattern(
  raw: string,
  delimiter: string,
  extended: boolean,
): { source: string; localeSensitive: boolean } | undefined {
  if (raw === "") return undefined;
  let source = "";
  let quantifiers = 0;
  let atoms = 0;
  let lastWasAtom = false;
  let localeSensitive = false;
  const quantifierChars = extended ? "*+?" : "*";
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] as string;
    if (char === "\\") {
      const next = raw[i + 1] as string;
      i++;
      if (next === delimiter || ".*[]\\^$/".includes(next) || (extended && "+?(){}|".includes(next))) {
        source += literal(next);
        atoms++;
        lastWasAtom = true;
        continue;
      }
      return undefined; // \( \{ \+ \n \w \1 ...: groups, GNU extensions, escapes
    }
    if (char === "^" && i === 0) {
      source += "^";
      continue;
    }
    if (char === "$" && i === raw.length - 1) {
      source += "$";
      continue;
    }
    if (quantifierChars.includes(char)) {
      // A leading `*` in a basic pattern is a literal star.
      if (!lastWasAtom) {
        if (extended || char !== "*") return undefined;
        source += "\\*";
        atoms++;
        lastWasAtom = true;
        continue;
      }
      if (++quantifiers > 1) return undefined;
      source += char;
      lastWasAtom = false;
      if (char !== "+") atoms--; // the quantified atom may match nothing
      continue;
    }
    if (extended && "(){}|^$".includes(char)) return undefined;
    if (char === "[") {
      const parsed = bracket(raw, i);
      if (!parsed) return undefined;
      source += parsed.source;
      i = parsed.end;
      localeSensitive = true;
    } else if (char === ".") {
      source += ".";
      localeSensitive = true;
    } else {
      source += literal(char);
    }
    atoms++;
    lastWasAtom = true;
  }
  // Every atom optional: the pattern can match the empty string.
  if (atoms <= 0) return undefined;
  return { source, localeSensitive };
}

function translateReplacement(raw: string, delimiter: string): Substitution["replacement"] | undefined {
  const pieces: Substitution["replacement"] = [];
  let text = "";
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] as string;
    if (char === "&") {
      if (text) pieces.push({ text });
      text = "";
      pieces.push({ match: true });
      continue;
    }
    if (char === "\n") return undefined;
    if (char === "\\") {
      const next = raw[i + 1];
      i++;
      if (next === "&" || next === "\\" || next === delimiter) text += next;
      else if (next === "n") text += "\n";
      else return undefined; // \1, \L, \U, \t...: refused
      continue;
    }
    text += char;
  }
  if (text) pieces.push({ text });
  return pieces;
}

export function parseSubstitution(script: string, extended: boolean): Substitution | undefined {
  const split = splitScript(script);
  if (!split || (split.flags !== "" && split.flags !== "g")) return undefined;
  const pattern = translatePattern(split.pattern, split.delimiter, extended);
  const replacement = translateReplacement(split.replacement, split.delimiter);
  if (!pattern || !replacement) return undefined;
  try {
    new RegExp(pattern.source, "us");
  } catch {
    return undefined;
  }
  return {
    pattern: pattern.source,
    replacement,
    global: split.flags === "g",
    localeSensitive: pattern.localeSensitive,
  };
}

/** The text after the substitution, applied to each line as sed applies it. */
export function applySubstitution(text: string, substitution: Substitution): string {
  const regex = new RegExp(substitution.pattern, substitution.global ? "gus" : "us");
  const replace = (match: string) =>
    substitution.replacement.map((piece) => ("match" in piece ? match : piece.text)).join("");
  const lines = text.split("\n");
  // After a final newline there is no line left: sed reads none there.
  const last = text.endsWith("\n") ? lines.length - 1 : lines.length;
  for (let i = 0; i < last; i++) lines[i] = (lines[i] as string).replace(regex, replace);
  return lines.join("\n");
}
