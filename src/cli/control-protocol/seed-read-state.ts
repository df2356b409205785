// The SDK's seed_read_state: the host saw the model Read a file whose Read has since left the
// context (snipped, compacted), and tells the session so that an Edit of it is not refused as
// "not read yet". The host names the file's mtime as it was at that Read (floored ms); when the
// file has changed on disk since, nothing is seeded and an Edit rightly asks for a fresh Read.
import { statSync } from "node:fs";
import type { SessionEngine } from "../../loop/session.js";
import { currentText } from "../../tools/file-shared/freshness.js";
import { resolveToolPath } from "../../tools/file-shared/paths.js";
import type { JsonObject } from "./channel.js";

/** Files larger than this are not seeded: the model would not have seen them whole in one Read. */
const MAX_SEEDED_BYTES = 10 * 1024 * 1024;

export function seedReadState(request: JsonObject, session: SessionEngine): JsonObject {
  const { path, mtime } = request;
  if (typeof path !== "string" || path === "") throw new Error("seed_read_state: path is missing");
  if (typeof mtime !== "number" || !Number.isFinite(mtime)) throw new Error("seed_read_state: mtime must be a number");
  const resolved = resolveToolPath(path, session.cwd, "path");
  if (!resolved.ok) throw new Error(`seed_read_state: ${resolved.message}`);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(resolved.path);
  } catch (error) {
    throw new Error(`seed_read_state: ${resolved.path} cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  if (!stats.isFile()) throw new Error(`seed_read_state: ${resolved.path} is not a file`);
  // Changed since the Read the host saw: the model's view is stale, so it must Read again.
  if (Math.floor(stats.mtimeMs) > mtime) return { seeded: false };
  if (stats.size > MAX_SEEDED_BYTES) return { seeded: false };
  const content = currentText(resolved.path);
  if (content === "\0unreadable") return { seeded: false };
  session.seedFileRead(resolved.path, { content, timestamp: stats.mtimeMs, offset: 1 });
  return { seeded: true };
}
