// Jobs carry an HMAC-SHA256 over their canonical spec, made with the fleet's job key (job-key.ts).
// A worker runs a job only when the signature is right: Redis is a queue, not an authority, and
// whoever can write to it must not be able to hand a worker a job of their own.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { JobSpec } from "./job-spec.js";

/** The field of a job's data that holds the signature (the rest is the spec). */
export const SIGNATURE_FIELD = "signature";

/** Names what is signed, so a signature made for anything else never passes for a job's. */
const DOMAIN = "warden-fleet-job-v1\n";

/** JSON with object keys sorted at every depth: one text per value, whatever order it was built in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function signSpec(spec: JobSpec, key: Buffer): string {
  return createHmac("sha256", key).update(DOMAIN).update(canonicalJson(spec)).digest("hex");
}

/** What goes into the queue: the spec and its signature. */
export function signedJobData(spec: JobSpec, key: Buffer): Record<string, unknown> {
  return { ...spec, [SIGNATURE_FIELD]: signSpec(spec, key) };
}

/** Splits a job's data into the spec's fields and the signature it carries. */
export function splitSignature(data: unknown): { fields: unknown; signature: unknown } {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return { fields: data, signature: undefined };
  const { [SIGNATURE_FIELD]: signature, ...fields } = data as Record<string, unknown>;
  return { fields, signature };
}

/** Why this job's signature does not prove it came from a key holder, or undefined when it does. */
export function signatureProblem(spec: JobSpec, signature: unknown, key: Buffer): string | undefined {
  if (signature === undefined)
    return "the job is not signed (submit it with `warden fleet submit`, which signs with the fleet's job key)";
  if (typeof signature !== "string" || !/^[0-9a-f]{64}$/.test(signature)) return "the job's signature is malformed";
  const expected = Buffer.from(signSpec(spec, key), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) {
    return "the job's signature does not match: it was changed after signing, or signed with another key than this worker's";
  }
  return undefined;
}
