import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const TOOL_RESULTS_DIR_NAME = "tool-results";

/** How many alternative names to try before giving up on a tool_use id that keeps colliding. */
const MAX_NAME_ATTEMPTS = 100;

export function toolResultsDir(sessionDir: string): string {
  return join(sessionDir, TOOL_RESULTS_DIR_NAME);
}

/**
 * A tool_use id comes from the model, so it is untrusted text: anything but letters, digits, `_`
 * and `-` is replaced, which keeps `../` and absolute paths from escaping the results folder.
 */
export function fileStemForToolUseId(toolUseId: string): string {
  const stem = toolUseId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 120);
  return stem.length > 0 ? stem : "tool-result";
}

// Folders made by this process: a long session persists a result every few turns, and a mkdir
// each time is three system calls for nothing. A folder removed meanwhile is made again on ENOENT.
const madeDirs = new Set<string>();

export async function ensureDir(dir: string): Promise<void> {
  if (madeDirs.has(dir)) return;
  await mkdir(dir, { recursive: true });
  madeDirs.add(dir);
}

async function writeFileCreatingDir(path: string, dir: string, content: string): Promise<void> {
  try {
    await writeFile(path, content, { encoding: "utf8", flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    madeDirs.delete(dir);
    await ensureDir(dir);
    await writeFile(path, content, { encoding: "utf8", flag: "wx" });
  }
}

/**
 * Writes a full result to `<sessionDir>/tool-results/<tool_use_id>.txt` and returns the path.
 * Never overwrites: a file already holding the same text is reused (a retried persist is
 * idempotent), one holding other text is left alone and a new name (`<id>-2.txt`, ...) is taken.
 * The exclusive-create flag makes the check and the write one step, so two writers cannot race.
 */
export async function persistToolResult(content: string, toolUseId: string, sessionDir: string): Promise<string> {
  const dir = toolResultsDir(sessionDir);
  await ensureDir(dir);
  const stem = fileStemForToolUseId(toolUseId);
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const path = join(dir, attempt === 1 ? `${stem}.txt` : `${stem}-${attempt}.txt`);
    try {
      await writeFileCreatingDir(path, dir, content);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const existing = await readFile(path, "utf8").catch(() => undefined);
      if (existing === content) return path;
    }
  }
  throw new Error(`could not find a free file name for tool result ${toolUseId} in ${dir}`);
}
