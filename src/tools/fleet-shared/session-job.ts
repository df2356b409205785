// What a job the session hands the fleet inherits from it: the repository it runs in (the top of
// this git work tree, cloned by the worker at its last commit) and the session's permission rules
// (a job runs headless: what its rules leave open is denied, never asked).
import { runGit } from "../../fs/git-run.js";
import { formatRule } from "../../permissions/index.js";
import type { FleetJobRequest } from "../../tool/fleet.js";
import type { ToolUseContext } from "../../tool/types.js";

/** The top of the git work tree `cwd` is in, or undefined outside one. */
export async function repositoryOf(cwd: string): Promise<string | undefined> {
  try {
    // runGit loads node:child_process only when a job is made (this module is part of every
    // session's start-up file; see scripts/cached-chunks.mjs).
    return (await runGit(cwd, ["rev-parse", "--show-toplevel"])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The session's allow and deny rules (plus `withheld` tool names, denied), as a job's options. */
export function sessionRules(
  context: ToolUseContext,
  withheld: readonly string[] = [],
): Pick<FleetJobRequest, "allowedTools" | "disallowedTools"> {
  const { rules } = context.getAppState().toolPermissionContext;
  const allowedTools = rules.allow.map((rule) => formatRule(rule.value));
  const disallowedTools = [...rules.deny.map((rule) => formatRule(rule.value)), ...withheld];
  return {
    ...(allowedTools.length > 0 ? { allowedTools } : {}),
    ...(disallowedTools.length > 0 ? { disallowedTools } : {}),
  };
}
