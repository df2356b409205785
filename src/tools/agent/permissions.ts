// A subagent's permission mode: the parent's, or a stricter one that its definition or the call
// asks for. Never wider: a definition or a model cannot grant a child what its parent does not have
// (a repository's agent asking for bypassPermissions runs with the parent's mode). The parent's
// rules (deny rules first of all) come along unchanged, and the child asks the parent's authority.
import type { PermissionMode } from "../../tool/permission-types.js";

/** How much a mode lets through without asking; a lower rank restricts. */
const MODE_RANK: Record<PermissionMode, number> = {
  plan: 1,
  dontAsk: 1,
  default: 2,
  acceptEdits: 3,
  auto: 4,
  bypassPermissions: 5,
};

/** The first requested mode that does not widen the parent's, else the parent's own. */
export function childPermissionMode(
  parent: PermissionMode,
  ...requested: Array<PermissionMode | undefined>
): PermissionMode {
  // Plan mode holds for everything the parent starts: nothing may change before a plan is approved.
  if (parent === "plan") return "plan";
  for (const mode of requested) {
    if (mode !== undefined && MODE_RANK[mode] <= MODE_RANK[parent]) return mode;
  }
  return parent;
}
