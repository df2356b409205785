// Read limits itself (its maxResultSizeChars is Infinity: persisting a Read result would only make
// the model Read the persisted file, and so on). These are its own bounds.

/** Lines returned when no limit is given. */
export const DEFAULT_LINE_LIMIT = 2000;
/** Longer lines are cut: minified code and base64 blobs would otherwise flood the context. */
export const MAX_LINE_CHARS = 2000;
/** A whole-file read (no offset/limit) of a bigger file is refused with advice to read in parts. */
export const MAX_WHOLE_READ_BYTES = 256 * 1024;
/** Estimated tokens in one result. */
export const MAX_OUTPUT_TOKENS = 25_000;
/** PDF pages per call, and the page count above which `pages` is required. */
export const MAX_PDF_PAGES_PER_READ = 20;
export const PDF_PAGES_WITHOUT_RANGE = 10;

/** A rough token estimate (about four characters per token for code and prose). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
