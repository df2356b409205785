// Edit permission rules carried into the sandbox, as Claude Code's sandbox does: a folder an Edit
// allow rule names is writable to sandboxed commands too (with the same protected files inside it
// as in a working folder), and a path an Edit deny rule names (or a
// rule for another writing tool: Write, MultiEdit, NotebookEdit) is read-only to them, over any
// writable folder that holds it. As for Read deny rules (read-deny.ts), only patterns that name one
// concrete path become mounts; glob patterns stay the permission engine's job.
import { lstatSync } from "node:fs";
import { userHome } from "../../config/paths.js";
import type { PermissionRule } from "../../tool/permission-types.js";
import { literalRulePath } from "./read-deny.js";

/** The rule names of the tools that write files (the Edit family of path rules). */
const WRITE_RULE_NAMES = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

function literalEditPaths(rules: readonly PermissionRule[], fallbackRoot: string): string[] {
  const paths: string[] = [];
  for (const rule of rules) {
    const content = rule.value.ruleContent;
    if (!WRITE_RULE_NAMES.has(rule.value.toolName) || content === undefined) continue;
    const path = literalRulePath(content, rule.root ?? fallbackRoot);
    if (path) paths.push(path);
  }
  return paths;
}

/**
 * Existing folders Edit allow rules name, to be writable (a single file outside the working folders
 * is left to the Edit tool and its prompt). Never the root or the whole home folder: a
 * rule that broad (`Edit(//**)`, `Edit(~/**)`) is the permission engine's to apply call by call,
 * not a reason to open everything to every command.
 */
export function editAllowedPaths(allowRules: readonly PermissionRule[], fallbackRoot: string): string[] {
  return literalEditPaths(allowRules, fallbackRoot).filter((path) => {
    if (path === "/" || path === userHome()) return false;
    try {
      return lstatSync(path).isDirectory();
    } catch {
      return false;
    }
  });
}

/** Paths Edit deny rules name, to stay read-only (bound only where they exist). */
export function editDeniedPaths(denyRules: readonly PermissionRule[], fallbackRoot: string): string[] {
  return literalEditPaths(denyRules, fallbackRoot);
}
