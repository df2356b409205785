// Text encodings the file tools keep: UTF-8 (the default, BOM kept when present) and UTF-16LE
// with its BOM. A file is written back in the encoding it was read in so that an edit never
// re-encodes a whole file behind the user's back.

export type TextEncoding = "utf8" | "utf8bom" | "utf16le";

export function detectEncoding(bytes: Uint8Array): TextEncoding {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return "utf16le";
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf8bom";
  return "utf8";
}

export function decodeText(bytes: Buffer, encoding: TextEncoding): string {
  if (encoding === "utf16le") return bytes.subarray(2).toString("utf16le");
  if (encoding === "utf8bom") return bytes.subarray(3).toString("utf8");
  return bytes.toString("utf8");
}

export function encodeText(text: string, encoding: TextEncoding): Buffer {
  if (encoding === "utf16le") return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  if (encoding === "utf8bom") return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
  return Buffer.from(text, "utf8");
}

/** CRLF and lone CR become LF: what the model sees and what old_string is matched against. */
export function normalizeLineEndings(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/**
 * True when a byte sample looks binary: a NUL byte (outside UTF-16) or many control bytes.
 * UTF-16 files are recognised by their BOM before this is asked.
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  // An index, not `for (const byte of sample)`: until V8 optimises this loop (a session calls it a
  // few times, so never), each step of an iterator allocates a result object, ~30 bytes a byte:
  // 8 KB of a file's head made ~250 KB of garbage, enough to bring a collection into a turn of reads.
  for (let i = 0; i < sample.length; i++) {
    const byte = sample[i] as number;
    if (byte === 0) return true;
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) control++;
  }
  return control / sample.length > 0.1;
}
