// Each permission mode's last word on what the rule steps decided, all in one place:
//   default, acceptEdits  nothing more (acceptEdits is the file tools' own answer: their write
//                         check allows inside the working directories in that mode)
//   bypassPermissions     nothing more (it is rule step 2a)
//   plan                  a call that would change something asks, even where a rule allows it,
//                         and gives plan mode as the reason; writing the plan file is allowed
//   dontAsk               nobody is asked: every ask is a deny
//   auto                  an ask is allowed without a person where that is safe: the call would be
//                         allowed in acceptEdits mode, or the tool is auto-mode safe. What is left
//                         goes to the classifier (classifier step of the engine), except the asks
//                         no mode may settle (safety checks, content ask rules, tools that need
//                         a human), which reach a person.
// Auto mode also decides with fewer allow rules (auto-mode-rules.ts); the pipeline applies that
// before the rule steps.
import type { PermissionAsk, PermissionDecision, ToolPermissionContext } from "../../tool/permission-types.js";
import type { AnyTool, CallScope, ToolInput, ToolUseContext } from "../../tool/types.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { PLAN_FILE_REASON } from "../filesystem/index.js";
import { describeReason } from "../rules/index.js";
import { isBypassImmuneAsk, withPermissionContext } from "./rule-steps.js";

export interface ModeArgs {
  tool: AnyTool;
  input: ToolInput;
  context: ToolUseContext;
  /** The context the rule steps decided with (in auto mode, with its allow rules set aside). */
  permissionContext: ToolPermissionContext;
}

export async function applyModeLastWord(args: ModeArgs, decision: PermissionDecision): Promise<PermissionDecision> {
  switch (args.permissionContext.mode) {
    case "plan":
      return planMode(args, decision);
    case "dontAsk":
      return dontAskMode(args, decision);
    case "auto":
      return decision.behavior === "ask" ? autoModeFastPaths(args, decision) : decision;
    default:
      return decision;
  }
}

function planMode(
  { tool, input, context, permissionContext }: ModeArgs,
  decision: PermissionDecision,
): PermissionDecision {
  if (
    decision.behavior === "deny" ||
    isReadOnlyCall(tool, input, { cwd: sessionWorkingDirectory(context), memo: context.callMemo }) ||
    writesPlanFile(tool, input, sessionWorkingDirectory(context), decision)
  ) {
    return decision;
  }
  // Plan mode explores; anything that changes the world waits for the user's go-ahead, and the
  // reason given is plan mode (not a rule that would not help while it lasts). The plan file is
  // the exception: writing the plan is what plan mode is for.
  const plan = permissionContext.planFilePath;
  return {
    behavior: "ask",
    message: `${tool.name} needs approval, and plan mode is read-only: it runs only what reads inside the working directories (${describeReason(decision.decisionReason)}).${
      plan ? ` Only the plan file ${plan} may be written; call ExitPlanMode to get the plan approved first.` : ""
    }`,
    decisionReason: { type: "mode", mode: "plan" },
  };
}

/**
 * A file tool's allow for the session's plan file (../filesystem/plan-file.ts), and nothing else: the call
 * names one file (getPath), and the path check allowed it as the plan file. A shell command that
 * writes the plan file among other things does not qualify.
 */
function writesPlanFile(tool: AnyTool, input: ToolInput, cwd: string, decision: PermissionDecision): boolean {
  const reason = decision.decisionReason;
  if (reason?.type !== "other" || reason.reason !== PLAN_FILE_REASON.reason) return false;
  try {
    return tool.getPath?.(input, cwd) !== undefined;
  } catch {
    return false;
  }
}

function dontAskMode({ tool }: ModeArgs, decision: PermissionDecision): PermissionDecision {
  if (decision.behavior !== "ask") return decision;
  return {
    behavior: "deny",
    message: `${tool.name} was not allowed: it needs approval and the permission mode is dontAsk (${describeReason(decision.decisionReason)}).`,
    decisionReason: { type: "mode", mode: "dontAsk" },
  };
}

/** Auto mode's two fast paths, tried before any classifier call. */
async function autoModeFastPaths(args: ModeArgs, ask: PermissionAsk): Promise<PermissionDecision> {
  const { tool, input, context, permissionContext } = args;
  if (isBypassImmuneAsk(tool, ask)) return ask;

  // Fast path 1: would acceptEdits allow it? (Agent-like tools are excluded: they run other tools.)
  if (tool.name !== "Agent" && tool.name !== "Task") {
    const asEdits = withPermissionContext(context, { ...permissionContext, mode: "acceptEdits" });
    try {
      const result = await tool.checkPermissions(input, asEdits);
      if (result.behavior === "allow") return { ...result, decisionReason: { type: "mode", mode: "acceptEdits" } };
    } catch {
      // No fast path; go on.
    }
  }
  // Fast path 2: a tool that only looks, whatever its input.
  if (tool.autoModeSafe) {
    return {
      behavior: "allow",
      decisionReason: { type: "classifier", classifier: "allowlist", reason: `${tool.name} only reads` },
    };
  }
  return ask;
}

function isReadOnlyCall(tool: AnyTool, input: ToolInput, scope: CallScope): boolean {
  try {
    return tool.isReadOnly(input, scope);
  } catch {
    return false;
  }
}
