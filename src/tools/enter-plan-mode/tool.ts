// EnterPlanMode: the session goes read-only, except its plan file, until a plan is approved with
// ExitPlanMode. Entering only takes permissions away, so it needs no one's approval.
import * as z from "zod";
import { enterPlanMode } from "../../permissions/settings/index.js";
import { buildTool } from "../../tool/build-tool.js";
import type { PermissionMode } from "../../tool/permission-types.js";
import { planModeReminderSource } from "../plan-shared/reminder.js";
import { ENTER_PLAN_MODE_PROMPT, ENTER_PLAN_MODE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() => z.strictObject({}));

export type EnterPlanModeInput = z.infer<typeof inputSchema>;

export interface EnterPlanModeOutput {
  planFilePath: string;
  previousMode: PermissionMode;
}

export const EnterPlanModeTool = buildTool<EnterPlanModeInput, EnterPlanModeOutput>({
  name: ENTER_PLAN_MODE_TOOL_NAME,
  // Talks with the user or steers the main session: never a subagent's.
  subagentAccess: "none",
  searchHint: "plan mode design before implementing read-only",
  shouldDefer: true,
  attachments: [planModeReminderSource],
  maxResultSizeChars: 10_000,
  inputSchema,
  prompt: async () => ENTER_PLAN_MODE_PROMPT,
  description: async () => "Enter plan mode",
  isReadOnly: () => true,
  autoModeSafe: true,
  isConcurrencySafe: () => true,
  checkPermissions: async () => ({
    behavior: "allow",
    decisionReason: { type: "tool", reason: "plan mode only takes permissions away" },
  }),
  toAutoClassifierInput: () => "enter plan mode",

  async validateInput(_input, context) {
    if (context.agentId !== undefined) {
      return { result: false, message: "EnterPlanMode is for the main session, not for a subagent.", errorCode: 1 };
    }
    const permissions = context.getAppState().toolPermissionContext;
    if (permissions.mode === "plan") {
      const where = permissions.planFilePath ? ` Your plan file is ${permissions.planFilePath}.` : "";
      return {
        result: false,
        message: `Plan mode is already on.${where} Write the plan there and call ExitPlanMode.`,
        errorCode: 2,
      };
    }
    return { result: true };
  },

  async call(_input, context) {
    const previousMode = context.getAppState().toolPermissionContext.mode;
    context.setAppState((prev) => enterPlanMode(prev, context.options.sessionDir));
    const planFilePath = context.getAppState().toolPermissionContext.planFilePath;
    if (planFilePath === undefined) throw new Error("plan mode has no plan file");
    return { data: { planFilePath, previousMode } };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Plan mode is on: explore and design, but change nothing. Write your plan to ${output.planFilePath} (the only file you may write; create it with Write), then call ExitPlanMode to have it approved.`,
  }),
});
