// The prompt as it looks in the first moments of an interactive session. Loading ink and react
// takes most of a second on a busy machine, far past the moment a person starts typing. So the
// binary draws a plain prompt at once, puts the terminal in raw mode and keeps every byte typed;
// the UI, once loaded, wipes this drawing and replays the bytes through its own key parser, so
// nothing typed early is lost or handled differently. Depends on nothing but keys.ts: it must be
// cheap to load.
import { KeyParser } from "./input/keys.js";

/** What the terminal needs of this module (process.stdin / process.stdout, or fakes in tests). */
export interface EarlyTerminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export interface EarlyInput {
  /**
   * Stops capturing and returns everything typed so far (raw). The plain prompt stays on screen
   * until the UI's first write, which wipes it in the same write (see wipeWithNextWrite).
   */
  handOver(): string;
  /** Restores the terminal (when the session ends before the UI took over). */
  restore(): void;
}

export const PLAIN_PROMPT = "> ";
/** Bracketed paste on: pasted text arrives between markers and is never mistaken for typing. */
export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";
const ERASE_TO_LINE_END = "\x1b[K";

export function startEarlyInput(terminal: EarlyTerminal, onExitRequest: () => void): EarlyInput {
  const { stdin, stdout } = terminal;
  const captured: string[] = [];
  const parser = new KeyParser();
  let echoed = 0;
  let ctrlCs = 0;
  // Raw mode before the first frame: a key typed between the prompt's drawing and raw mode was
  // echoed by the terminal (cooked mode) and again by us once read, so it showed twice. Keys typed
  // before that, while Node started, were echoed by the terminal at the cursor: the prompt is drawn
  // over them from the line's start (\r, erase to its end), and they are echoed once, below, when
  // read, like every other key.
  stdin.setRawMode?.(true);
  stdout.write(`${BRACKETED_PASTE_ON}\r${ERASE_TO_LINE_END}${PLAIN_PROMPT}`);
  stdin.setEncoding("utf8");
  const onData = (chunk: string | Buffer) => {
    const text = enterAsTyped(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
    captured.push(text);
    for (const event of parser.push(text)) {
      if (event.kind === "text") {
        stdout.write(event.text);
        echoed += event.text.length;
      } else if (event.kind === "paste") {
        const marker = `[pasted ${event.text.length} chars]`;
        stdout.write(marker);
        echoed += marker.length;
      } else if (event.name === "backspace" && echoed > 0) {
        stdout.write("\b \b");
        echoed--;
      } else if (event.name === "ctrlC" && ++ctrlCs >= 2) {
        onExitRequest();
      }
    }
  };
  stdin.on("data", onData);
  stdin.resume();
  return {
    handOver() {
      stdin.off("data", onData);
      stdin.pause();
      const columns = stdout.columns || 80;
      const rowsUp = Math.floor((PLAIN_PROMPT.length + Math.max(0, echoed - 1)) / columns);
      wipeWithNextWrite(stdout, `${rowsUp > 0 ? `\x1b[${rowsUp}A` : ""}\r\x1b[J`);
      return captured.join("");
    },
    restore() {
      stdin.off("data", onData);
      stdout.write(`${BRACKETED_PASTE_OFF}\r\n`);
      stdin.setRawMode?.(false);
      stdin.pause();
    },
  };
}

/**
 * The terminal was in cooked mode until raw mode went on, and there an Enter typed while Node
 * started arrives as "\n" (the terminal's ICRNL), which the UI reads as Ctrl+J: a new line in the
 * prompt, so what was typed was never sent. In raw mode Enter is "\r" and "\n" only Ctrl+J, which
 * no one types in a session's first moments: here a lone "\n" is an Enter. (In a bracketed paste a
 * line break stays one: the paste's text has its "\r"s made line breaks again.)
 */
function enterAsTyped(text: string): string {
  return text.replace(/(?<!\r)\n/g, "\r");
}

/**
 * Writes `wipe` in front of the next thing written to `stdout`, in the same write. Wiping the
 * plain prompt at hand-over left the screen blank until the UI drew its first frame (25-55 ms,
 * every run; issue 39); now the prompt stays until that frame replaces it. Whoever writes first
 * (the UI's frame, a trust question, the session's exit) gets the wipe; later writes are untouched.
 */
function wipeWithNextWrite(stdout: NodeJS.WriteStream, wipe: string): void {
  const write = stdout.write;
  type WriteArgs = Parameters<NodeJS.WriteStream["write"]>;
  let wiped = false;
  const withWipe = (...args: WriteArgs): boolean => {
    // Set back only if no one wrapped the stream's write since (theirs keeps calling this one).
    if (stdout.write === withWipe) stdout.write = write;
    if (wiped) return write.apply(stdout, args);
    wiped = true;
    const [chunk, ...rest] = args;
    if (typeof chunk === "string") return write.apply(stdout, [wipe + chunk, ...rest] as WriteArgs);
    write.call(stdout, wipe);
    return write.apply(stdout, args);
  };
  stdout.write = withWipe as NodeJS.WriteStream["write"];
}
