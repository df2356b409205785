// The engine's entry point for the loop: a CanUseTool that settles each call in a short chain of
// steps, each of which may settle it or hand an ask to the next:
//   pipeline      the hook's word, the rules and the mode's last word (../pipeline/)
//   classifier    auto mode only: a classifier judges what the pipeline left open (../classifier/)
//   hooks         PermissionRequest hooks may answer for the person (never past a safety check)
//   ask handler   the session's person or callback; "don't ask again" answers are applied here
//   record        denials tracked, every decision recorded
import type {
  PermissionAsk,
  PermissionDecision,
  PermissionMode,
  PermissionUpdate,
  PreToolUseHookDecision,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import type { AnyTool, CanUseTool, CanUseToolOptions, ToolInput, ToolUseContext } from "../../tool/types.js";
import { type AutoModeClassifier, askClassifier, DenialTracker } from "../classifier/index.js";
import { runPermissionPipeline, withPermissionContext } from "../pipeline/index.js";
import { describeReason } from "../rules/index.js";
import { applyPermissionUpdates, persistPermissionUpdate } from "../settings/index.js";
import { type AskHandler, asksSomebody } from "./ask-handlers.js";

/** One line of the transcript's permission log. */
export interface PermissionDecisionRecord {
  type: "permission_decision";
  toolName: string;
  toolUseId: string;
  input: ToolInput;
  behavior: "allow" | "deny";
  /** Who settled it: the engine alone, a person (or callback) asked, the auto-mode classifier, a hook. */
  decidedBy: "engine" | "askHandler" | "autoMode" | "hook";
  reason: string;
  decision: PermissionDecision;
  /** Set when somebody was asked: what the question said and why the engine could not settle it alone. */
  asked?: { message: string; reason: string };
  at: string;
}

export interface CreateCanUseToolOptions {
  askHandler: AskHandler;
  /** Defaults to the AppState's toolPermissionContext. */
  getPermissionContext?: (context: ToolUseContext) => ToolPermissionContext;
  /** Overrides the context's mode (e.g. an MCP server forcing dontAsk). */
  mode?: PermissionMode;
  recordDecision?: (record: PermissionDecisionRecord) => void;
  classifier?: AutoModeClassifier;
  denialTracker?: DenialTracker;
  /** Writes "don't ask again" answers to settings files (default: the settings of context.options.cwd). */
  persistUpdate?: (update: PermissionUpdate, cwd: string) => void;
  /** Errors that must not fail the call (e.g. a settings file that could not be written). */
  onWarning?: (message: string) => void;
  /**
   * "Don't ask again" answers, given whoever asked (a subagent has an AppState of its own): the
   * session applies them to its own permission context, so the rule holds for every agent of the
   * session from then on, not only for the one that asked.
   */
  onAnswerUpdates?: (updates: readonly PermissionUpdate[]) => void;
}

/** One call on its way through the chain. */
interface PendingCall {
  tool: AnyTool;
  input: ToolInput;
  context: ToolUseContext;
  toolUseId: string;
  permissionContext: ToolPermissionContext;
}

type DecidedBy = PermissionDecisionRecord["decidedBy"];

/** What a step hands on: a settled decision, or an ask (with words for whoever settles it). */
type StepOutcome =
  | { settled: PermissionDecision; decidedBy: DecidedBy; asked?: PermissionAsk }
  | { ask: PermissionAsk; note?: string };

export function createCanUseTool(options: CreateCanUseToolOptions): CanUseTool & { denials: DenialTracker } {
  const tracker = options.denialTracker ?? new DenialTracker();
  const persist = options.persistUpdate ?? persistPermissionUpdate;

  function permissionContextFor(context: ToolUseContext): ToolPermissionContext {
    const permissionContext = options.getPermissionContext?.(context) ?? context.getAppState().toolPermissionContext;
    return options.mode ? { ...permissionContext, mode: options.mode } : permissionContext;
  }

  async function pipelineStep(call: PendingCall, hook: PreToolUseHookDecision | undefined): Promise<StepOutcome> {
    const { decision, settledBy } = await runPermissionPipeline(
      call.tool,
      call.input,
      call.context,
      call.permissionContext,
      hook,
    );
    return decision.behavior === "ask" ? { ask: decision } : { settled: decision, decidedBy: settledBy };
  }

  async function classifierStep(call: PendingCall, ask: PermissionAsk): Promise<StepOutcome> {
    if (call.permissionContext.mode !== "auto") return { ask };
    const outcome = await askClassifier({
      tool: call.tool,
      input: call.input,
      context: call.context,
      ask,
      classifier: options.classifier,
      tracker,
      nonInteractive: call.context.options.isNonInteractive,
    });
    if (outcome.kind === "decided") return { settled: outcome.decision, decidedBy: "autoMode" };
    if (outcome.kind === "ask") return { ask, note: outcome.note };
    // Headless and the classifier keeps refusing: stop the run rather than loop on denials.
    call.context.abortController.abort(new Error(outcome.message));
    const reason = { type: "other" as const, reason: outcome.message };
    return { settled: { behavior: "deny", message: outcome.message, decisionReason: reason }, decidedBy: "autoMode" };
  }

  /**
   * PermissionRequest hooks answer for the person. A deny always holds. An allow settles what the
   * rules and the mode left open, but not a safety check (protected paths and the like always
   * reach a person); a rewritten input is parsed by the tool and goes through the pipeline again,
   * so a hook cannot turn the call into one a deny rule forbids.
   */
  async function permissionRequestStep(
    call: PendingCall,
    ask: PermissionAsk,
    note: string | undefined,
  ): Promise<StepOutcome> {
    const hooks = call.context.getAppState().hooks;
    if (!hooks?.has("PermissionRequest")) return { ask, note };
    const result = await hooks.permissionRequest(
      call.tool.name,
      call.input,
      call.toolUseId,
      ask.suggestions ?? [],
      call.context.abortController.signal,
    );
    for (const error of result.errors) options.onWarning?.(`PermissionRequest hook: ${error}`);
    const decision = result.decision;
    if (!decision) return { ask, note };
    const hookReason = { type: "hook" as const, hookName: "PermissionRequest" };
    if (decision.behavior === "deny") {
      return {
        settled: {
          behavior: "deny",
          message: decision.message,
          decisionReason: { ...hookReason, reason: decision.message },
          ...(decision.interrupt && { interrupt: true }),
        },
        decidedBy: "hook",
      };
    }
    if (ask.decisionReason?.type === "safetyCheck") return { ask, note };
    if (!decision.updatedInput) {
      return {
        settled: { behavior: "allow", updatedInput: ask.updatedInput, decisionReason: hookReason },
        decidedBy: "hook",
      };
    }
    const parsed = call.tool.inputSchema.safeParse(decision.updatedInput);
    if (!parsed.success) {
      const message = "A PermissionRequest hook rewrote the input into one the tool does not accept";
      return {
        settled: { behavior: "deny", message, decisionReason: { ...hookReason, reason: message } },
        decidedBy: "hook",
      };
    }
    const input = parsed.data as ToolInput;
    const again = await pipelineStep({ ...call, input }, undefined);
    if ("settled" in again && again.settled.behavior === "deny") return again;
    if ("ask" in again && again.ask.decisionReason?.type === "safetyCheck")
      return { ask: { ...again.ask, updatedInput: input }, note };
    return { settled: { behavior: "allow", updatedInput: input, decisionReason: hookReason }, decidedBy: "hook" };
  }

  async function askHandlerStep(call: PendingCall, ask: PermissionAsk, note: string | undefined): Promise<StepOutcome> {
    // Notification hooks (fire-and-forget): somebody is about to be asked; the answer never waits for them.
    const hooks = call.context.getAppState().hooks;
    if (asksSomebody(options.askHandler) && hooks?.has("Notification")) {
      void hooks
        .notification("permission_prompt", `Warden needs your permission to use ${call.tool.name}`)
        .catch(() => undefined);
    }
    const response = await options.askHandler({
      tool: call.tool,
      input: call.input,
      ask,
      context: withPermissionContext(call.context, call.permissionContext),
      toolUseId: call.toolUseId,
      permissionContext: call.permissionContext,
      note,
    });
    if (response.behavior === "deny") {
      const decisionReason = ask.decisionReason ?? { type: "other" as const, reason: "refused when asked" };
      return {
        settled: {
          behavior: "deny",
          message: response.message ?? ask.message,
          decisionReason,
          ...(response.interrupt === true && { interrupt: true }),
        },
        decidedBy: "askHandler",
        asked: ask,
      };
    }
    if (response.updates?.length) applyUpdates(response.updates, call.context);
    return {
      settled: {
        behavior: "allow",
        updatedInput: response.updatedInput ?? ask.updatedInput,
        decisionReason: { type: "other", reason: "approved when asked" },
      },
      decidedBy: "askHandler",
      asked: ask,
    };
  }

  function record(
    call: PendingCall,
    decision: PermissionDecision,
    decidedBy: DecidedBy,
    asked?: PermissionAsk,
  ): PermissionDecision {
    // Nothing leaves the engine as an ask: whoever was last to see it did not approve it.
    const settled: PermissionDecision =
      decision.behavior === "ask"
        ? {
            behavior: "deny",
            message: decision.message,
            decisionReason: decision.decisionReason ?? { type: "other", reason: "not approved" },
          }
        : decision;
    const { tool, toolUseId, input } = call;
    if (settled.behavior === "deny") {
      tracker.recordDenial({
        toolName: tool.name,
        toolUseId,
        input,
        message: settled.message,
        reason: settled.decisionReason,
      });
      // Remembered in the session's state: leaving plan mode then returns to default, not auto.
      if (tracker.classifierTripped && !call.context.getAppState().autoModeCircuitTripped)
        call.context.setAppState((prev) => ({ ...prev, autoModeCircuitTripped: true }));
    } else {
      tracker.recordAllow();
    }
    options.recordDecision?.({
      type: "permission_decision",
      toolName: tool.name,
      toolUseId,
      input,
      behavior: settled.behavior as "allow" | "deny",
      decidedBy,
      reason: describeReason(settled.decisionReason),
      decision: settled,
      ...(asked && { asked: { message: asked.message, reason: describeReason(asked.decisionReason) } }),
      at: new Date().toISOString(),
    });
    return settled;
  }

  const canUseTool = async (
    tool: AnyTool,
    input: ToolInput,
    context: ToolUseContext,
    _assistantMessage: unknown,
    toolUseId: string,
    callOptions?: CanUseToolOptions,
  ): Promise<PermissionDecision> => {
    const call: PendingCall = { tool, input, context, toolUseId, permissionContext: permissionContextFor(context) };
    let outcome = await pipelineStep(call, callOptions?.preToolUseDecision);
    if ("ask" in outcome) outcome = await classifierStep(call, outcome.ask);
    if ("ask" in outcome) outcome = await permissionRequestStep(call, outcome.ask, outcome.note);
    if ("ask" in outcome) outcome = await askHandlerStep(call, outcome.ask, outcome.note);
    return "ask" in outcome
      ? record(call, outcome.ask, "askHandler")
      : record(call, outcome.settled, outcome.decidedBy, outcome.asked);
  };

  function applyUpdates(updates: PermissionUpdate[], context: ToolUseContext): void {
    const cwd = context.options.cwd;
    context.setAppState((prev) => ({
      ...prev,
      toolPermissionContext: applyPermissionUpdates(prev.toolPermissionContext, updates, cwd),
    }));
    options.onAnswerUpdates?.(updates);
    for (const update of updates) {
      try {
        persist(update, cwd);
      } catch (error) {
        options.onWarning?.(
          `could not save the permission answer: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  return Object.assign(canUseTool, { denials: tracker });
}
