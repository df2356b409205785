import { fstatSync } from "node:fs";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
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
    if (process.stdin.isTTY || !stdinIsPipeOrFile()) return argumentPrompt;
    const piped = await readStdin();
    return piped.trim() ? `${argumentPrompt}\n\n${piped}` : argumentPrompt;
  }
  if (process.stdin.isTTY) return undefined;
  return readStdin();
}
