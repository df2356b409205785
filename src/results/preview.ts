/** What the model sees of a persisted result: the first 2 KB. */
export const PREVIEW_SIZE_BYTES = 2_000;

export interface Preview {
  preview: string;
  hasMore: boolean;
}

/**
 * The start of `content`, at most `maxBytes` of UTF-8, never splitting a character. When a line
 * break falls in the second half of the window the cut is made there, so the model does not read
 * a half line as if it were whole.
 */
export function generatePreview(content: string, maxBytes = PREVIEW_SIZE_BYTES): Preview {
  if (Buffer.byteLength(content, "utf8") <= maxBytes) return { preview: content, hasMore: false };
  let end = Math.min(content.length, maxBytes);
  while (end > 0 && Buffer.byteLength(content.slice(0, end), "utf8") > maxBytes) end--;
  // Do not leave a lone high surrogate at the end.
  const last = content.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const window = content.slice(0, end);
  const lastNewline = window.lastIndexOf("\n");
  const preview = lastNewline > end / 2 ? window.slice(0, lastNewline) : window;
  return { preview, hasMore: true };
}

/** 45.2 KB, 1.3 MB: sizes as a person reads them. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
