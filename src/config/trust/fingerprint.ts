// The fingerprint a trust entry records: a hash of the folder's widening settings, file by file,
// in a canonical form (object keys sorted), so that reformatting a file does not ask again but any
// change to what it would grant does.
import { createHash } from "node:crypto";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object" && value !== null) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) sorted[key] = canonical((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

/** `sha256:<hex>` over `{ file: widening }` for every source that widens (keyed by its relative path). */
export function wideningFingerprint(widening: Readonly<Record<string, unknown>>): string {
  const text = JSON.stringify(canonical(widening));
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}
