// `warden teammate-view FILE TITLE` (internal): what a teammate's tmux pane runs. It follows the
// teammate's sidechain transcript as it grows and prints its work for a person: the messages it
// receives, its answers, each tool call with the start of its result, and its end. It reads only;
// the lead closes the pane when the teammate stops.
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";

const POLL_MS = 150;
const RESULT_LINES = 4;
const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;
const bold = (text: string) => `\x1b[1m${text}\x1b[22m`;

type Block = { type: string; text?: string; name?: string; input?: unknown; content?: unknown; is_error?: boolean };
type Entry = { type?: string; message?: { content?: string | Block[] }; reason?: string; turns?: number };

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part: Block) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`)).join("\n");
}

function firstLines(text: string, count: number): string {
  const lines = text.split("\n");
  const shown = lines.slice(0, count).join("\n");
  return lines.length > count ? `${shown}\n… ${lines.length - count} more lines` : shown;
}

/** The lines a person sees for one transcript entry (none for bookkeeping entries). */
export function renderEntry(entry: Entry): string[] {
  if (entry.type === "agent_result") return [bold(`— stopped (${entry.reason ?? "ended"}, ${entry.turns ?? 0} turns)`)];
  const content = entry.message?.content;
  if (entry.type !== "user" && entry.type !== "assistant") return [];
  const blocks: Block[] = typeof content === "string" ? [{ type: "text", text: content }] : (content ?? []);
  const out: string[] = [];
  for (const block of blocks) {
    if (block.type === "text" && block.text?.trim()) {
      out.push(entry.type === "user" ? `${bold("›")} ${block.text.trim()}` : block.text.trim());
    } else if (block.type === "tool_use") {
      const input = JSON.stringify(block.input ?? {});
      out.push(`${bold("⏺")} ${block.name}(${input.length > 200 ? `${input.slice(0, 200)}…` : input})`);
    } else if (block.type === "tool_result") {
      const text = firstLines(resultText(block.content).trim() || "(no output)", RESULT_LINES);
      out.push(dim(text.replace(/^/gm, block.is_error ? "  ✗ " : "  ⎿ ")));
    }
  }
  return out;
}

/** Follows the file from its start, printing each complete line's rendering; never returns. */
export async function followTranscript(path: string, title: string, write: (text: string) => void): Promise<never> {
  write(`${bold(title)}\n${dim(path)}\n\n`);
  let offset = 0;
  let pending = "";
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    if (existsSync(path) && statSync(path).size > offset) {
      const fd = openSync(path, "r");
      try {
        for (let read = readSync(fd, buffer, 0, buffer.length, offset); read > 0; ) {
          offset += read;
          pending += buffer.subarray(0, read).toString("utf8");
          read = readSync(fd, buffer, 0, buffer.length, offset);
        }
      } finally {
        closeSync(fd);
      }
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        let entry: Entry;
        try {
          entry = JSON.parse(line) as Entry;
        } catch {
          continue;
        }
        for (const text of renderEntry(entry)) write(`${text}\n`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
