import { formatSize, generatePreview } from "./preview.js";

export const PERSISTED_OUTPUT_OPEN_TAG = "<persisted-output>";
export const PERSISTED_OUTPUT_CLOSE_TAG = "</persisted-output>";

/** What the model reads in place of a result that was written to disk. */
export function persistedOutputMessage(content: string, path: string): string {
  const { preview, hasMore } = generatePreview(content);
  const size = formatSize(Buffer.byteLength(content, "utf8"));
  return [
    PERSISTED_OUTPUT_OPEN_TAG,
    `Output too large (${size}). Full output saved to: ${path}`,
    "",
    `Preview (first ${formatSize(Buffer.byteLength(preview, "utf8"))}):`,
    preview,
    ...(hasMore ? ["..."] : []),
    PERSISTED_OUTPUT_CLOSE_TAG,
  ].join("\n");
}

/**
 * Used only when the disk refused the write: the model is told plainly that it sees a part, and
 * why, instead of silently receiving a cut result it might take for the whole.
 */
export function unpersistableOutputMessage(content: string, reason: string): string {
  const { preview } = generatePreview(content);
  const size = formatSize(Buffer.byteLength(content, "utf8"));
  return [
    PERSISTED_OUTPUT_OPEN_TAG,
    `Output too large (${size}) and it could not be saved to disk (${reason}). Only the start is shown:`,
    "",
    preview,
    "...",
    PERSISTED_OUTPUT_CLOSE_TAG,
  ].join("\n");
}

export function isPersistedOutput(content: string): boolean {
  return content.startsWith(PERSISTED_OUTPUT_OPEN_TAG);
}
