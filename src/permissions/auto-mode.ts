// Auto mode: the same pipeline, but an ask is settled without a human when that is safe: first two
// fast paths (the call would be allowed in acceptEdits mode; the tool is on a read-only allowlist),
// then a classifier. Asks that must reach a human (safety checks, content ask rules, tools that
// need interaction) never go to the classifier.
import type { PermissionAsk, PermissionDecision, ToolPermissionContext } from "../tool/permission-types.js";
import type { AnyTool, ToolInput, ToolUseContext } from "../tool/types.js";
import type { DenialTracker } from "./denial-tracking.js";
import { isBypassImmuneAsk, withPermissionContext } from "./pipeline.js";

export interface ClassifierRequest {
  toolName: string;
  /** The tool's compact rendering of the call (toAutoClassifierInput). Only the call, never the
   * assistant's prose: that text is model-written and could be crafted to sway the verdict. */
  action: string;
  input: ToolInput;
}

export interface ClassifierVerdict {
  block: boolean;
  reason: string;
}

export interface AutoModeClassifier {
  readonly name: string;
  classify(request: ClassifierRequest, signal: AbortSignal): Promise<ClassifierVerdict>;
}

/** Tools that only look: allowed in auto mode without a classifier call. Writes are not here:
 * the acceptEdits fast path handles those inside the working directories. */
export const AUTO_MODE_SAFE_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "LSP",
  "ToolSearch",
  "TodoWrite",
  "TaskOutput",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  "ExitPlanMode",
  "EnterPlanMode",
]);

export type AutoModeOutcome =
  | { kind: "decided"; decision: PermissionDecision }
  /** A human must decide (or, headless, the ask becomes a deny). */
  | { kind: "ask"; note?: string }
  /** Headless and the breaker tripped: stop the run instead of looping on refusals. */
  | { kind: "abort"; message: string };

export interface AutoModeArgs {
  tool: AnyTool;
  input: ToolInput;
  context: ToolUseContext;
  permissionContext: ToolPermissionContext;
  ask: PermissionAsk;
  classifier?: AutoModeClassifier;
  tracker: DenialTracker;
  nonInteractive: boolean;
}

export async function settleAskInAutoMode(args: AutoModeArgs): Promise<AutoModeOutcome> {
  const { tool, input, context, permissionContext, ask } = args;
  if (isBypassImmuneAsk(tool, ask)) return { kind: "ask" };

  // Fast path 1: would acceptEdits allow it? (Agent-like tools are excluded: they run other tools.)
  if (tool.name !== "Agent" && tool.name !== "Task") {
    const asEdits = withPermissionContext(context, { ...permissionContext, mode: "acceptEdits" });
    try {
      const result = await tool.checkPermissions(input, asEdits);
      if (result.behavior === "allow") {
        return {
          kind: "decided",
          decision: { ...result, decisionReason: { type: "mode", mode: "acceptEdits" } },
        };
      }
    } catch {
      // No fast path; go on.
    }
  }
  // Fast path 2: read-only tools on the allowlist.
  if (AUTO_MODE_SAFE_TOOLS.has(tool.name)) {
    return {
      kind: "decided",
      decision: {
        behavior: "allow",
        decisionReason: { type: "classifier", classifier: "allowlist", reason: `${tool.name} only reads` },
      },
    };
  }

  if (args.tracker.classifierTripped) {
    const { consecutive, total } = args.tracker.classifierDenials;
    const message = `Auto mode stopped deciding after ${consecutive} refusals in a row (${total} in all).`;
    return args.nonInteractive ? { kind: "abort", message } : { kind: "ask", note: message };
  }
  if (!args.classifier) return { kind: "ask", note: "no auto-mode classifier is configured" };

  const action = tool.toAutoClassifierInput(input);
  // Nothing to judge: a tool that cannot describe its call is not approved blind.
  if (action === "") return { kind: "ask", note: `${tool.name} gives the classifier nothing to judge` };
  let verdict: ClassifierVerdict;
  try {
    verdict = await args.classifier.classify({ toolName: tool.name, action, input }, context.abortController.signal);
  } catch (error) {
    // Unavailable classifier: fail closed towards a human, never towards allow.
    return { kind: "ask", note: `classifier unavailable: ${error instanceof Error ? error.message : String(error)}` };
  }
  const reason = { type: "classifier" as const, classifier: args.classifier.name, reason: verdict.reason };
  if (verdict.block) {
    return {
      kind: "decided",
      decision: {
        behavior: "deny",
        message: `Auto mode blocked ${tool.name}: ${verdict.reason}`,
        decisionReason: reason,
      },
    };
  }
  return { kind: "decided", decision: { behavior: "allow", decisionReason: reason } };
}
