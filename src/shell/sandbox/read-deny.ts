// Read deny rules carried into the sandbox: a path the user denied to the Read tool should not be
// readable through `cat` either. Only patterns that name one concrete path can become a mount
// (`Read(~/.ssh/**)`, `Read(//etc/shadow)`, `Read(./.env)`); glob patterns (`Read(*.env)`) stay
// the permission engine's job, which checks the paths a command names before it runs.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { userHome } from "../../config/paths.js";
import type { PermissionRule } from "../../tool/permission-types.js";

export interface HiddenPath {
  path: string;
  kind: "file" | "directory";
}

const GLOB_CHARACTERS = /[*?[\]{}!]/;

/** The one path a rule pattern names, anchored as path rules are; undefined for globs. */
export function literalRulePath(pattern: string, root: string): string | undefined {
  const trimmed = pattern.replace(/\/\*\*$/, "").replace(/\/+$/, "");
  let base: string;
  let rest: string;
  if (trimmed.startsWith("//")) [base, rest] = ["/", trimmed.slice(2)];
  else if (trimmed === "~" || trimmed.startsWith("~/")) [base, rest] = [userHome(), trimmed.slice(2)];
  else if (trimmed.startsWith("./")) [base, rest] = [root, trimmed.slice(2)];
  else if (trimmed.startsWith("/")) [base, rest] = [root, trimmed.slice(1)];
  // No slash: gitignore-style "at any depth", which no single mount can express.
  else if (!trimmed.includes("/")) return undefined;
  else [base, rest] = [root, trimmed];
  if (GLOB_CHARACTERS.test(rest) || rest.split("/").includes("..")) return undefined;
  return rest ? join(base, rest) : base;
}

export function readDeniedPaths(denyRules: readonly PermissionRule[], fallbackRoot: string): HiddenPath[] {
  const hidden: HiddenPath[] = [];
  for (const rule of denyRules) {
    const content = rule.value.ruleContent;
    if (rule.value.toolName !== "Read" || content === undefined) continue;
    const path = literalRulePath(content, rule.root ?? fallbackRoot);
    // Hiding "/" or a whole home would leave nothing to work with; the engine still denies reads there.
    if (!path || path === "/" || path === userHome()) continue;
    try {
      const stat = lstatSync(path);
      if (stat.isDirectory()) hidden.push({ path, kind: "directory" });
      else if (stat.isFile()) hidden.push({ path, kind: "file" });
    } catch {
      // Nothing there to hide.
    }
  }
  return hidden;
}
