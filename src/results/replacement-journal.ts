// Replacement decisions on disk, beside the files they point to, so that a resumed session sends
// its old tool results exactly as before (same preview, same path) even if a saved file was
// changed or removed in between; re-deciding could pick another file name and break the cache.
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ensureDir, toolResultsDir } from "./persist.js";

const JOURNAL_NAME = "replacements.jsonl";

export function replacementJournalPath(sessionDir: string): string {
  return join(toolResultsDir(sessionDir), JOURNAL_NAME);
}

/** tool_use id → content sent in its place. A missing or damaged journal yields what it can. */
export async function readReplacementJournal(sessionDir: string): Promise<Map<string, string>> {
  const decisions = new Map<string, string>();
  let text: string;
  try {
    text = await readFile(replacementJournalPath(sessionDir), "utf8");
  } catch {
    return decisions;
  }
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry: unknown = JSON.parse(line);
      if (isDecision(entry)) decisions.set(entry.toolUseId, entry.content);
    } catch {
      // A torn last line (the process died mid-write): that decision is simply taken again.
    }
  }
  return decisions;
}

/** Records one decision; the folder exists already (the replaced result was just saved in it). */
export async function appendReplacementJournal(sessionDir: string, toolUseId: string, content: string): Promise<void> {
  await appendReplacementJournalEntries(sessionDir, [{ toolUseId, content }]);
}

/** Records several decisions in one write (a microcompaction clears results in batches). */
export async function appendReplacementJournalEntries(
  sessionDir: string,
  entries: ReadonlyArray<{ toolUseId: string; content: string }>,
): Promise<void> {
  if (entries.length === 0) return;
  const lines = entries.map(({ toolUseId, content }) => `${JSON.stringify({ toolUseId, content })}\n`).join("");
  // A batch of stubs for results that were never saved (Read's) may be the folder's first file.
  await ensureDir(toolResultsDir(sessionDir));
  await appendFile(replacementJournalPath(sessionDir), lines, "utf8");
}

function isDecision(entry: unknown): entry is { toolUseId: string; content: string } {
  if (typeof entry !== "object" || entry === null) return false;
  const { toolUseId, content } = entry as Record<string, unknown>;
  return typeof toolUseId === "string" && typeof content === "string";
}
