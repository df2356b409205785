// The hint side channel: a program run through Bash can print a self-closing tag
//   <warden-hint kind="..." message="..."/>
// (or Claude Code's <claude-code-hint .../>, read the same way so tools written for it work here)
// to tell the agent something without cluttering its output. The tags are taken out of the text
// the model reads; each hint is kept whole in the call's output (for front ends and hooks), and a
// hint with a message gives the model that one short line instead of the raw markup. A hint grants
// nothing: it is text from the command, read as such.

export interface CommandHint {
  /** The tag's name as printed: warden-hint or claude-code-hint. */
  tag: string;
  attributes: Record<string, string>;
}

const TAG_SOURCE = `<(warden-hint|claude-code-hint)((?:\\s+[A-Za-z_][\\w.-]*\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*\\/>`;
const HINT_TAG = new RegExp(TAG_SOURCE, "g");
/** A line that holds nothing but a tag goes with its newline. */
const HINT_LINE = new RegExp(`^[ \\t]*${TAG_SOURCE}[ \\t]*(?:\\r?\\n|$)`, "gm");
const ATTRIBUTE = /([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const MAX_HINTS = 10;
const MAX_MESSAGE_CHARS = 300;

/** The output without its hint tags, and the hints. */
export function extractHints(output: string): { text: string; hints: CommandHint[] } {
  if (!output.includes("-hint")) return { text: output, hints: [] };
  const hints: CommandHint[] = [];
  const take = (_tag: string, name: string, rawAttributes: string) => {
    if (hints.length < MAX_HINTS) {
      const attributes: Record<string, string> = {};
      for (const match of rawAttributes.matchAll(ATTRIBUTE)) {
        attributes[match[1] as string] = match[2] ?? match[3] ?? "";
      }
      hints.push({ tag: name, attributes });
    }
    return "";
  };
  const text = output.replace(HINT_LINE, take).replace(HINT_TAG, take);
  return { text, hints };
}

/** The lines the model reads for the hints: one per hint that carries a message. */
export function hintNotes(hints: CommandHint[]): string[] {
  return hints.flatMap((hint) => {
    const message = hint.attributes.message ?? hint.attributes.text;
    if (!message) return [];
    const kind = hint.attributes.kind ?? hint.attributes.type;
    const short = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
    return [`Hint from the command${kind ? ` (${kind})` : ""}: ${short}`];
  });
}
