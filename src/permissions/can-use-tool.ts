// The engine's entry point for the loop: a CanUseTool that runs the pipeline, lets auto mode or
// the session's ask handler settle asks, applies "don't ask again" answers, tracks denials and
// records every decision.
import type {
  PermissionDecision,
  PermissionMode,
  PermissionUpdate,
  ToolPermissionContext,
} from "../tool/permission-types.js";
import type { AnyTool, CanUseTool, ToolInput, ToolUseContext } from "../tool/types.js";
import "../hooks/tool-hooks.js";
import type { AskHandler } from "./ask-handlers.js";
import { type AutoModeClassifier, settleAskInAutoMode } from "./auto-mode.js";
import { autoModePermissionContext } from "./auto-mode-rules.js";
import { DenialTracker } from "./denial-tracking.js";
import { describeReason } from "./describe.js";
import { checkRuleBasedPermissions, hasPermissionsToUseTool, withPermissionContext } from "./pipeline.js";
import { applyPermissionUpdates, persistPermissionUpdate } from "./updates.js";

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
}

export function createCanUseTool(options: CreateCanUseToolOptions): CanUseTool & { denials: DenialTracker } {
  const tracker = options.denialTracker ?? new DenialTracker();
  const persist = options.persistUpdate ?? persistPermissionUpdate;

  const canUseTool = async (
    tool: AnyTool,
    input: ToolInput,
    context: ToolUseContext,
    _assistantMessage: unknown,
    toolUseId: string,
  ): Promise<PermissionDecision> => {
    let permissionContext = options.getPermissionContext?.(context) ?? context.getAppState().toolPermissionContext;
    if (options.mode) permissionContext = { ...permissionContext, mode: options.mode };
    if (permissionContext.mode === "auto") permissionContext = autoModePermissionContext(permissionContext);

    const finish = (decision: PermissionDecision, decidedBy: PermissionDecisionRecord["decidedBy"]) => {
      const settled: PermissionDecision =
        decision.behavior === "ask"
          ? {
              behavior: "deny",
              message: decision.message,
              decisionReason: decision.decisionReason ?? { type: "other", reason: "not approved" },
            }
          : decision;
      if (settled.behavior === "deny") {
        tracker.recordDenial({
          toolName: tool.name,
          toolUseId,
          input,
          message: settled.message,
          reason: settled.decisionReason,
        });
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
        at: new Date().toISOString(),
      });
      return settled;
    };

    let decision: PermissionDecision;
    const hook = context.preToolUseDecision;
    if (hook?.behavior === "allow") {
      // A hook may skip the prompt, never a deny rule or a bypass-immune ask.
      const objection = await checkRuleBasedPermissions(tool, input, context, permissionContext);
      if (!objection) {
        return finish(
          { behavior: "allow", decisionReason: { type: "hook", hookName: hook.hooks.join(", "), reason: hook.reason } },
          "hook",
        );
      }
      decision = objection;
    } else if (hook?.behavior === "ask") {
      decision = {
        behavior: "ask",
        message: `A PreToolUse hook asks for approval of ${tool.name}${hook.reason ? `: ${hook.reason}` : ""}.`,
        decisionReason: { type: "hook", hookName: hook.hooks.join(", "), reason: hook.reason },
      };
    } else {
      decision = await hasPermissionsToUseTool(tool, input, context, permissionContext);
    }
    if (decision.behavior !== "ask") return finish(decision, "engine");
    if (permissionContext.mode === "dontAsk") {
      // Hook answers reach here without the pipeline's last word: dontAsk still means nobody is asked.
      const message = `${decision.message} It was not allowed: the permission mode is dontAsk.`;
      return finish({ behavior: "deny", message, decisionReason: { type: "mode", mode: "dontAsk" } }, "engine");
    }

    let note: string | undefined;
    if (permissionContext.mode === "auto") {
      const outcome = await settleAskInAutoMode({
        tool,
        input,
        context,
        permissionContext,
        ask: decision,
        classifier: options.classifier,
        tracker,
        nonInteractive: context.options.isNonInteractive,
      });
      if (outcome.kind === "decided") return finish(outcome.decision, "autoMode");
      if (outcome.kind === "abort") {
        // Headless and the classifier keeps refusing: stop the run rather than loop on denials.
        context.abortController.abort(new Error(outcome.message));
        return finish(
          { behavior: "deny", message: outcome.message, decisionReason: { type: "other", reason: outcome.message } },
          "autoMode",
        );
      }
      note = outcome.note;
    }

    const response = await options.askHandler({
      tool,
      input,
      ask: decision,
      context: withPermissionContext(context, permissionContext),
      toolUseId,
      permissionContext,
      note,
    });
    if (response.behavior === "deny") {
      return finish(
        {
          behavior: "deny",
          message: response.message ?? decision.message,
          decisionReason: decision.decisionReason ?? { type: "other", reason: "refused when asked" },
        },
        "askHandler",
      );
    }
    if (response.updates?.length) applyUpdates(response.updates, context);
    return finish(
      {
        behavior: "allow",
        updatedInput: response.updatedInput ?? decision.updatedInput,
        decisionReason: { type: "other", reason: "approved when asked" },
      },
      "askHandler",
    );
  };

  function applyUpdates(updates: PermissionUpdate[], context: ToolUseContext): void {
    const cwd = context.options.cwd;
    context.setAppState((prev) => ({
      ...prev,
      toolPermissionContext: applyPermissionUpdates(prev.toolPermissionContext, updates, cwd),
    }));
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
