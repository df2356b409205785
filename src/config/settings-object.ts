import { readFileSync } from "node:fs";
import { withoutByteOrderMark } from "./json-text.js";

/**
 * Reads a settings file as the plain JSON object a writer is about to change. A missing or empty
 * file is an empty object; a byte-order mark (editors on Windows write one) is skipped. A file that
 * does not parse, or holds something other than an object, is an error: writing over it would lose
 * what it holds, so the user fixes it first.
 */
export function readSettingsObjectForUpdate(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  text = withoutByteOrderMark(text);
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON; not changing it (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path} does not hold a JSON object; not changing it`);
  }
  return parsed as Record<string, unknown>;
}
