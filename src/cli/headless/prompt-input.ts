import { fstatSync } from "node:fs";
import { isatty } from "node:tty";

/** All of stdin, as text (to its end). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Whether stdin is a terminal, asked of the descriptor: touching `process.stdin` builds a stream
 * object (a few ms of start-up) that a session with its prompt on the command line never needs.
 */
export function stdinIsTerminal(): boolean {
  return isatty(0);
}

/** True when stdin is a shell pipe or a redirected file: input that is sure to end. */
function stdinIsPipeOrFile(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile();
  } catch {
    return false;
  }
}

/**
 * The prompt of a headless run. Without a prompt argument it is all of stdin. With one, piped
 * input (`cat log | warden -p "explain"`) is added after it; stdin is read then only when it is a
 * pipe or a file, because a parent process that hands us an open socket it never closes would
 * otherwise make us wait forever.
 */
export async function readPrompt(argumentPrompt: string | undefined): Promise<string | undefined> {
  if (argumentPrompt !== undefined) {
    if (stdinIsTerminal() || !stdinIsPipeOrFile()) return argumentPrompt;
    const piped = await readStdin();
    return piped.trim() ? `${argumentPrompt}\n\n${piped}` : argumentPrompt;
  }
  if (stdinIsTerminal()) return undefined;
  return readStdin();
}
