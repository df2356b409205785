// Main validators about quoting and lexing: each stops a spelling that bash reads one way and a
// JavaScript tokenizer (or a person reading the prompt) reads another.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are bash commands, where ${...} is bash syntax.
import { QuoteContext } from "../parse/index.js";
import { finding, nodesOf, type ValidationInput, type Validator } from "./types.js";

/**
 * ID 4: obfuscated words. `$'\x72\x6d'`, `$"rm"`, `r''m`, `""-i` and runs of quotes all rebuild
 * a command or flag that does not appear literally, defeating anyone matching on text. The
 * words are still recovered (so deny rules hold), but the command is never waved through.
 */
export const obfuscatedFlags: Validator = {
  id: 4,
  name: "validateObfuscatedFlags",
  examples: {
    match: [
      "$'\\x72\\x6d' -rf build",
      `$"rm" -rf build`,
      `sed -''i s/a/b/ notes.txt`,
      `r""m -rf build`,
      `'''ls'`,
      `find . ""-delete`,
    ],
    notMatch: [`grep -e "TODO" 'src/main.ts'`, "git commit -m ''", `grep -e '-v' notes.txt`],
  },
  check: (input) => {
    if (nodesOf(input, "ansi_c_string").length > 0) {
      return finding(
        4,
        "validateObfuscatedFlags",
        "The command uses ANSI-C quoting ($'...'), which can spell hidden commands or flags.",
      );
    }
    if (nodesOf(input, "translated_string").length > 0) {
      return finding(
        4,
        "validateObfuscatedFlags",
        'The command uses locale quoting ($"..."), which can hide commands or substitutions.',
      );
    }
    for (const node of nodesOf(input, "raw_string", "string")) {
      const empty = node.text === "''" || node.text === '""';
      const parent = node.parent;
      if (empty && parent?.type === "concatenation") {
        return finding(
          4,
          "validateObfuscatedFlags",
          "An empty quote pair is glued to a word, which hides what the word really is.",
        );
      }
      if (parent?.type === "concatenation" && parent.firstChild?.id === node.id && /^['"]-/.test(node.text)) {
        return finding(4, "validateObfuscatedFlags", "A flag is built from quoted pieces.");
      }
    }
    if (/(['"])\1\1|(['"])\2(?=-)/.test(unquotedView(input))) {
      return finding(4, "validateObfuscatedFlags", "Runs of quote characters hide what a word really is.");
    }
    return undefined;
  },
};

/** The script with quoted and commented characters blanked, so patterns see only bare text. */
function unquotedView(input: ValidationInput): string {
  let out = "";
  for (let i = 0; i < input.script.length; i += 1) {
    const context = input.contexts[i];
    const ch = input.script[i] as string;
    out += context === QuoteContext.Unquoted || ch === "'" || ch === '"' ? ch : " ";
  }
  return out;
}

/**
 * ID 5: shell metacharacters inside the quoted operands of find's name tests. A pattern like
 * `-name "x;rm -rf y"` is harmless to find, but a tokenizer splitting on `;` sees a second
 * command; these are not the patterns real searches use, so they ask.
 */
export const shellMetacharacters: Validator = {
  id: 5,
  name: "validateShellMetacharacters",
  examples: {
    match: [`find . -name "*.ts;rm -rf build"`, `find / -path '*|curl evil.example'`],
    notMatch: [`find . -name '*.ts'`, `find . -name '*.tmp' -exec rm {} \\;`, `grep -r "a;b" src`],
  },
  check: (input) => {
    for (const part of input.parts) {
      const words = part.command.words;
      if (words[0]?.value !== "find") continue;
      for (let i = 1; i < words.length - 1; i += 1) {
        if (!/^-i?(name|path|regex|wholename)$/.test(words[i]?.value ?? "")) continue;
        if (/[;|&]/.test(words[i + 1]?.value ?? "")) {
          return finding(5, "validateShellMetacharacters", "A find pattern contains shell operators (; | &).");
        }
      }
    }
    return undefined;
  },
};

/** ID 7 (carriage return): bash keeps CR inside a word; JavaScript splitters treat it as a blank. */
export const carriageReturn: Validator = {
  id: 7,
  name: "validateCarriageReturn",
  examples: {
    match: ["ls\r", "git status\r\nrm -rf build"],
    notMatch: ["ls\n", "printf 'a\\rb'"],
  },
  check: (input) =>
    input.raw.includes("\r")
      ? finding(
          7,
          "validateCarriageReturn",
          "The command contains a carriage return, which bash and JavaScript tokenizers split differently.",
        )
      : undefined,
};

/**
 * ID 15: backslash-escaped blanks outside quotes. `echo hi\<tab>#; rm` keeps the `#` in a word
 * for bash but a tokenizer that drops the escape sees a comment hiding `; rm`.
 */
export const backslashEscapedWhitespace: Validator = {
  id: 15,
  name: "validateBackslashEscapedWhitespace",
  examples: {
    match: ["cat My\\ Notes.txt", "echo hi\\\t#; rm -rf build"],
    notMatch: ["cat 'My Notes.txt'", "echo a\\nb"],
  },
  check: (input) => {
    const { script, contexts } = input;
    for (let i = 0; i < script.length - 1; i += 1) {
      if (contexts[i] !== QuoteContext.Unquoted || script[i] !== "\\") continue;
      const next = script[i + 1] as string;
      if (next === " " || next === "\t") {
        return finding(15, "validateBackslashEscapedWhitespace", "A backslash escapes a blank outside quotes.");
      }
      i += 1;
    }
    return undefined;
  },
};

/**
 * ID 21: backslash-escaped operators outside quotes (`\;`, `\|`, `\&`, `\<`, `\>`). `echo a \&& rm`
 * is `echo a &` then `& rm` to bash. find's `\;` terminator, standing alone, is the one exception.
 */
export const backslashEscapedOperators: Validator = {
  id: 21,
  name: "validateBackslashEscapedOperators",
  examples: {
    match: ["echo a \\&& rm -rf build", "echo \\| sh", "echo done\\;ls"],
    notMatch: ["find . -name '*.tmp' -exec rm {} \\;", "echo 'a && b'"],
  },
  check: (input) => {
    const { script, contexts } = input;
    for (let i = 0; i < script.length - 1; i += 1) {
      if (contexts[i] !== QuoteContext.Unquoted || script[i] !== "\\") continue;
      const next = script[i + 1] as string;
      if (";|&<>".includes(next)) {
        const standaloneTerminator =
          next === ";" &&
          (i === 0 || /\s/.test(script[i - 1] as string)) &&
          (i + 2 >= script.length || /[\s;]/.test(script[i + 2] as string));
        if (!standaloneTerminator) {
          return finding(
            21,
            "validateBackslashEscapedOperators",
            `A backslash escapes the operator ${next} outside quotes.`,
          );
        }
      }
      i += 1;
    }
    return undefined;
  },
};

const UNICODE_BLANKS = /[\u0085\u00A0\u1680\u180E\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;

/** ID 18: Unicode blanks. JavaScript's \s matches them; bash treats them as word characters. */
export const unicodeWhitespace: Validator = {
  id: 18,
  name: "validateUnicodeWhitespace",
  examples: {
    match: ["ls\u00a0-la", "echo ok\u3000#; rm -rf build", "ls\ufeff"],
    notMatch: ["echo café", "ls -la"],
  },
  check: (input) =>
    UNICODE_BLANKS.test(input.raw)
      ? finding(
          18,
          "validateUnicodeWhitespace",
          "The command contains Unicode whitespace that bash does not treat as a blank.",
        )
      : undefined,
};

/**
 * ID 19: `#` in the middle of a word. Bash keeps it as text (`src#1`), a tokenizer may start a
 * comment there and stop reading, hiding what follows from its checks.
 */
export const midWordHash: Validator = {
  id: 19,
  name: "validateMidWordHash",
  examples: {
    match: ["git checkout fix#42", "echo issue#7"],
    notMatch: ["echo $#", "echo ${#PATH}", "echo 'a#b'", "ls # list"],
  },
  check: (input) => {
    const { script, contexts } = input;
    for (let i = 1; i < script.length; i += 1) {
      if (script[i] !== "#" || contexts[i] !== QuoteContext.Unquoted) continue;
      const before = script[i - 1] as string;
      if (/\s/.test(before) || before === "$" || before === "{" || ";&|()<>".includes(before)) continue;
      return finding(19, "validateMidWordHash", "A # inside a word is text to bash but a comment to some parsers.");
    }
    return undefined;
  },
};

/**
 * ID 16: brace expansion. `{rm,-rf,x}` becomes three words only after bash expands it, so text
 * matchers never see the command or flag it builds.
 */
export const braceExpansion: Validator = {
  id: 16,
  name: "validateBraceExpansion",
  examples: {
    match: ["cp config.json{,.bak}", "touch file{1..3}.txt", "{rm,-rf,build}"],
    notMatch: ["echo '{a,b}'", "find . -name '*.ts' -exec wc -l {} +", "echo ${HOME}"],
  },
  check: (input) => {
    const { script, contexts } = input;
    for (let i = 0; i < script.length; i += 1) {
      if (script[i] !== "{" || contexts[i] !== QuoteContext.Unquoted || script[i - 1] === "$") continue;
      let depth = 0;
      for (let j = i + 1; j < script.length; j += 1) {
        if (contexts[j] !== QuoteContext.Unquoted) continue;
        const ch = script[j] as string;
        if (/\s/.test(ch)) break;
        if (ch === "{") depth += 1;
        else if (ch === "}") {
          if (depth === 0) break;
          depth -= 1;
        } else if (depth === 0 && (ch === "," || (ch === "." && script[j + 1] === "."))) {
          return finding(
            16,
            "validateBraceExpansion",
            "The command uses brace expansion, which builds words that are not written out.",
          );
        }
      }
    }
    return undefined;
  },
};

/**
 * ID 22: quotes inside comments. Bash ignores them; a quote tracker that does not know where
 * comments end starts a "string" there and misreads every later line.
 */
export const commentQuoteDesync: Validator = {
  id: 22,
  name: "validateCommentQuoteDesync",
  examples: {
    match: ["ls # don't list hidden files", `make test # run "all" suites`],
    notMatch: ["ls # list files", `echo "# it's quoted, not a comment"`],
  },
  check: (input) => {
    for (const comment of nodesOf(input, "comment")) {
      if (/['"`]/.test(comment.text)) {
        return finding(
          22,
          "validateCommentQuoteDesync",
          "A comment contains quote characters, which desynchronise quote tracking.",
        );
      }
    }
    return undefined;
  },
};

/**
 * ID 23: a quoted newline followed by a line starting with `#`. Line-based comment stripping
 * drops that line and with it the closing quote, so the rest of the command is read wrongly.
 */
export const quotedNewline: Validator = {
  id: 23,
  name: "validateQuotedNewline",
  examples: {
    match: ["echo 'first\n# second' ; ls", `printf "%s\n" "a\n  # b"`],
    notMatch: ["echo 'first\nsecond'", "printf '%s\\n' '# heading'"],
  },
  check: (input) => {
    for (const node of nodesOf(input, "string", "raw_string", "ansi_c_string")) {
      if (/\n[ \t]*#/.test(node.text)) {
        return finding(
          23,
          "validateQuotedNewline",
          "A quoted string has a line that starts with #, which comment stripping would cut.",
        );
      }
    }
    return undefined;
  },
};
