// The session's plan file: the one file plan mode lets the session write. It lives in the
// session's own folder (outside the working directories, so the ordinary path checks would ask
// for it); the path checks allow it by this test, and plan mode lets exactly that allow through.
import { basename, dirname, join } from "node:path";
import { pathsToCheck, resolveRealPath } from "../../fs/real-path.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";

/** The reason a write to the plan file is allowed; plan mode (../pipeline/modes.ts) lets exactly this through. */
export const PLAN_FILE_REASON = { type: "other", reason: "writing this session's plan file" } as const;

/**
 * True when `absolutePath` is the session's plan file, as spelled and where it really leads: a
 * link planted at the plan file's place that points elsewhere is not the plan file.
 */
export function isPlanFile(absolutePath: string, context: ToolPermissionContext): boolean {
  const plan = context.planFilePath;
  if (plan === undefined) return false;
  // Where the plan file belongs: its folder resolved, its own name not (if plan.md itself is a
  // link, its target is somewhere else, and that is not the plan file).
  const places = [plan, join(resolveRealPath(dirname(plan)), basename(plan))];
  return pathsToCheck(absolutePath).every((path) => places.includes(path));
}
