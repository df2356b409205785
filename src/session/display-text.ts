// Text from outside the session (another session's message) made safe to show in a prompt, the
// UI or the model's context: terminal escape sequences (CSI, OSC, DCS and the rest, in their 7-bit
// and 8-bit forms) removed whole, then every other control character, and the bidirectional
// overrides that reorder what a person reads. A one-line field (a name, a folder, a summary) also
// loses its line breaks and tabs, so it cannot fake a second line of the prompt.

/** ESC [ ... final, ESC ] ... BEL/ST, ESC P/X/^/_ ... ST, and two-character ESC sequences. */
const ESCAPE_SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[ -/]*[0-~]?/g;
/** C0 controls but tab and newline, DEL, C1 controls, and bidi embeddings, overrides and isolates. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Multi-line text (a message body): escapes and controls gone, newlines and tabs kept. */
export function displayText(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, "").replace(CONTROLS, "").replace(/\r/g, "");
}

/** A one-line field: as displayText, with line breaks and tabs turned into spaces. */
export function displayLine(text: string): string {
  return displayText(text).replace(/[\n\t]+/g, " ");
}
