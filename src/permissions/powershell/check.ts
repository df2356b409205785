// The PowerShell tool's say on a script: analysed (the grammar loads on first use), then decided.
// A script the analysis cannot handle still meets the deny rules as far as words go, then asks.
import { analyzePowerShell } from "../../shell/powershell/index.js";
import type { PermissionResult, ToolPermissionContext } from "../../tool/permission-types.js";
import { decidePowerShellPermission } from "./decide.js";
import { POWERSHELL_TOOL_NAME, powerShellRulesOf } from "./rules.js";

/** Longer scripts are not analysed (nobody reviews one this size in a prompt either). */
export const MAX_ANALYSED_POWERSHELL_LENGTH = 20_000;

export interface PowerShellPermissionRequest {
  command: string;
  cwd: string;
  permissionContext: ToolPermissionContext;
}

export async function checkPowerShellPermission(request: PowerShellPermissionRequest): Promise<PermissionResult> {
  const { command, cwd, permissionContext } = request;
  if (command.length > MAX_ANALYSED_POWERSHELL_LENGTH) {
    return withoutAnalysis(
      command,
      permissionContext,
      `the command is longer than the ${MAX_ANALYSED_POWERSHELL_LENGTH} characters that are analysed`,
    );
  }
  try {
    const analysis = await analyzePowerShell(command);
    return decidePowerShellPermission(analysis, permissionContext, cwd);
  } catch (error) {
    const reason = `the command could not be analysed (${error instanceof Error ? error.message : String(error)})`;
    return withoutAnalysis(command, permissionContext, reason);
  }
}

/**
 * Without an analysis, a deny rule whose command name appears anywhere in the text denies (stricter
 * than needed, never looser); anything else asks.
 */
function withoutAnalysis(command: string, context: ToolPermissionContext, reason: string): PermissionResult {
  const lower = command.toLowerCase();
  const denied = powerShellRulesOf(context).find(
    (r) => r.behavior === "deny" && lower.includes((r.words[0] ?? "").toLowerCase()),
  );
  if (denied) {
    return {
      behavior: "deny",
      message: `Permission to run this command was denied by the rule ${POWERSHELL_TOOL_NAME}(${denied.rule.value.ruleContent}) (${reason}).`,
      decisionReason: { type: "rule", rule: denied.rule },
    };
  }
  return {
    behavior: "ask",
    message: `This PowerShell command needs a human to look at it: ${reason}`,
    decisionReason: { type: "safetyCheck", reason },
  };
}
