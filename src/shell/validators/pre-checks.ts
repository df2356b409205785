// Phase 0: byte-level rejections that run before anything trusts the parse.
import { QuoteContext } from "../parse/index.js";
import { finding, type ValidationInput, type Validator } from "./types.js";

// C0 controls except tab/newline/CR, DEL, C1 controls, and bidi/zero-width format characters.
const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\x80-\x9F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069]/;

/**
 * ID 17: control characters. Terminal escapes and backspaces can hide a second command from
 * the person approving it (`echo ok \b\b\b; rm -rf x` prints innocently), NUL truncates in C
 * but not in JavaScript, and bidi overrides reorder what is shown.
 */
export const controlCharacters: Validator = {
  id: 17,
  name: "validateControlCharacters",
  examples: {
    // Backspaces that let later text overwrite what was shown, a bell, a right-to-left override, DEL.
    match: ["echo ok \b\b\b\b; rm -rf build", "printf done\u0007", "cat notes\u202Etxt.sh", "ls\u007f"],
    notMatch: ["cut -f1 'a\tb.tsv'", "printf 'a\\tb\\n'", "echo café"],
  },
  check: (input) =>
    CONTROL.test(input.raw)
      ? finding(17, "validateControlCharacters", "The command contains control or invisible formatting characters.")
      : undefined,
};

/**
 * No id in the reference's list (pre-check 0b): a backslash right before the quote that closes
 * a single-quoted string. Bash keeps the backslash literal and closes the string; a tokenizer
 * that treats it as an escape (shell-quote does) keeps reading, so everything after it — for
 * example `'\'' ; rm -rf x` — is misread as quoted text.
 */
export const shellQuoteSingleQuoteBug: Validator = {
  id: 0,
  name: "validateSingleQuoteBackslash",
  examples: {
    match: [`echo 'C:\\' ; rm -rf build`, `echo 'it'\\''s done'`],
    notMatch: [`printf '%s\\n' done`, `grep -E 'a\\.b' notes.txt`, `echo "it's done"`],
  },
  check: (input: ValidationInput) => {
    const { script, contexts } = input;
    let inside = false;
    for (let i = 0; i < script.length; i += 1) {
      if (contexts[i] !== QuoteContext.Single) {
        inside = false;
        continue;
      }
      if (script[i] !== "'") continue;
      if (!inside) {
        inside = true;
        continue;
      }
      inside = false;
      // `'it'\''s'`: the idiom for a quote inside single quotes is exactly where such a
      // tokenizer goes wrong, so it is refused along with a backslash before the closing quote.
      if (script[i - 1] === "\\" || script.startsWith("\\''", i + 1)) {
        return finding(
          0,
          "validateSingleQuoteBackslash",
          "A single-quoted string ends in a backslash, which some parsers read as an escaped quote.",
        );
      }
    }
    return undefined;
  },
};
