// Auto mode's classifier step: an ask that the pipeline (with auto mode's fast paths) left open is
// put to a classifier instead of a person. Asks that must reach a human (safety checks, content
// ask rules, tools that need interaction) never go to it, and a classifier that keeps refusing
// trips a breaker: from then on a person decides (or, headless, the run stops).
import type { PermissionAsk, PermissionDecision } from "../../tool/permission-types.js";
import type { AnyTool, ToolInput, ToolUseContext } from "../../tool/types.js";
import { isBypassImmuneAsk } from "../pipeline/index.js";
import type { DenialTracker } from "./denial-tracking.js";

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

export type ClassifierOutcome =
  | { kind: "decided"; decision: PermissionDecision }
  /** A human must decide (or, headless, the ask becomes a deny). */
  | { kind: "ask"; note?: string }
  /** Headless and the breaker tripped: stop the run instead of looping on refusals. */
  | { kind: "abort"; message: string };

export interface ClassifierArgs {
  tool: AnyTool;
  input: ToolInput;
  context: ToolUseContext;
  ask: PermissionAsk;
  classifier?: AutoModeClassifier;
  tracker: DenialTracker;
  nonInteractive: boolean;
}

export async function askClassifier(args: ClassifierArgs): Promise<ClassifierOutcome> {
  const { tool, input, context, ask } = args;
  if (isBypassImmuneAsk(tool, ask)) return { kind: "ask" };

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
