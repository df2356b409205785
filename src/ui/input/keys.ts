// Raw terminal input (what a TTY in raw mode delivers) turned into key events. The UI reads stdin
// itself instead of through ink's useInput, so that the very same parser serves the keystrokes
// captured before ink has loaded (early-input.ts) and those typed afterwards, and so that pastes
// can be told apart from typing (bracketed paste, or several lines arriving in one chunk).

export type KeyName =
  | "enter"
  /** Alt+Enter, Ctrl+J or a backslash before Enter: a new line in the prompt. */
  | "newline"
  | "escape"
  | "backspace"
  | "delete"
  | "tab"
  | "shiftTab"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "ctrlA"
  | "ctrlB"
  | "ctrlC"
  | "ctrlD"
  | "ctrlE"
  | "ctrlK"
  | "ctrlL"
  | "ctrlU"
  | "ctrlW";

export type KeyEvent =
  | { kind: "key"; name: KeyName }
  /** Typed characters (one or more, none of them control characters). */
  | { kind: "text"; text: string }
  /** Text pasted at once: kept whole, newlines included. */
  | { kind: "paste"; text: string };

const CONTROL_KEYS: Record<string, KeyName> = {
  "\r": "enter",
  "\n": "newline",
  "\t": "tab",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x01": "ctrlA",
  "\x02": "ctrlB",
  "\x03": "ctrlC",
  "\x04": "ctrlD",
  "\x05": "ctrlE",
  "\x0b": "ctrlK",
  "\x0c": "ctrlL",
  "\x15": "ctrlU",
  "\x17": "ctrlW",
};

const ESCAPE_SEQUENCES: Record<string, KeyName> = {
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "right",
  "\x1b[D": "left",
  "\x1bOA": "up",
  "\x1bOB": "down",
  "\x1bOC": "right",
  "\x1bOD": "left",
  "\x1b[H": "home",
  "\x1b[F": "end",
  "\x1bOH": "home",
  "\x1bOF": "end",
  "\x1b[1~": "home",
  "\x1b[4~": "end",
  "\x1b[7~": "home",
  "\x1b[8~": "end",
  "\x1b[3~": "delete",
  "\x1b[Z": "shiftTab",
  "\x1b\r": "newline",
  "\x1b\n": "newline",
  "\x1b\x7f": "ctrlW",
};

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/**
 * A stateful parser: a chunk may end in the middle of an escape sequence or of a bracketed paste,
 * and the rest arrives with the next chunk.
 */
export class KeyParser {
  private pending = "";
  private pasting: string | undefined;

  push(chunk: string): KeyEvent[] {
    const events: KeyEvent[] = [];
    let input = this.pending + chunk;
    this.pending = "";
    while (input.length > 0) {
      if (this.pasting !== undefined) {
        const end = input.indexOf(PASTE_END);
        if (end === -1) {
          this.pasting += input;
          return events;
        }
        events.push({ kind: "paste", text: normalizeNewlines(this.pasting + input.slice(0, end)) });
        this.pasting = undefined;
        input = input.slice(end + PASTE_END.length);
        continue;
      }
      if (input.startsWith("\x1b")) {
        if (input.startsWith(PASTE_START)) {
          this.pasting = "";
          input = input.slice(PASTE_START.length);
          continue;
        }
        const sequence = escapeSequenceAt(input);
        if (sequence === undefined) {
          // Possibly the start of a sequence whose rest is still on its way.
          this.pending = input;
          return events;
        }
        const name = ESCAPE_SEQUENCES[sequence];
        if (name) events.push({ kind: "key", name });
        else if (sequence === "\x1b") events.push({ kind: "key", name: "escape" });
        // Other sequences (function keys, focus reports, Alt+letter) are ignored on purpose.
        input = input.slice(sequence.length);
        continue;
      }
      const run = /^[^\x00-\x1f\x7f]+/.exec(input)?.[0];
      if (run) {
        events.push({ kind: "text", text: run });
        input = input.slice(run.length);
        continue;
      }
      // A control character. Several lines arriving in one chunk without bracketed paste are a
      // paste too (a terminal that does not bracket): everything up to the chunk's last Enter.
      const first = input[0] as string;
      if ((first === "\r" || first === "\n") && events.length > 0 && looksLikeUnbracketedPaste(input)) {
        const last = events[events.length - 1];
        const rest = input.replace(/[\r\n]+$/, "");
        const cut = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]/.exec(rest)?.index ?? rest.length;
        const pasted = rest.slice(0, cut);
        if (last?.kind === "text") events.pop();
        events.push({ kind: "paste", text: normalizeNewlines((last?.kind === "text" ? last.text : "") + pasted) });
        input = input.slice(pasted.length);
        continue;
      }
      const name = CONTROL_KEYS[first];
      if (name) events.push({ kind: "key", name });
      input = input.slice(1);
    }
    return events;
  }

  /** A lone ESC held back as a possible sequence start is a real ESC once no more input follows. */
  flushPendingEscape(): KeyEvent[] {
    if (this.pending !== "\x1b") return [];
    this.pending = "";
    return [{ kind: "key", name: "escape" }];
  }

  get hasPendingEscape(): boolean {
    return this.pending === "\x1b";
  }
}

/** Text with a line break followed by more text in the same chunk: typing never delivers that. */
function looksLikeUnbracketedPaste(input: string): boolean {
  return /^[\r\n]+[^\x00-\x1f\x7f]/.test(input);
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * The escape sequence at the start of `input`, or undefined when it may still be incomplete.
 * A lone ESC at the end of a chunk is reported as incomplete; the caller flushes it a moment later.
 */
function escapeSequenceAt(input: string): string | undefined {
  if (input.length === 1) return undefined;
  const second = input[1] as string;
  if (second === "[") {
    // CSI: parameters and intermediates, then one final byte in @..~.
    const match = /^\x1b\[[0-?]*[ -/]*[@-~]/.exec(input);
    if (match) return match[0];
    return /^\x1b\[[0-?]*[ -/]*$/.test(input) ? undefined : "\x1b";
  }
  if (second === "O") {
    if (input.length < 3) return undefined;
    return input.slice(0, 3);
  }
  if (second === "\x1b") return "\x1b";
  // Alt+key: ESC then one character.
  return input.slice(0, 2);
}
