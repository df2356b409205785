// ExitPlanMode: presents the plan (read from the plan file; an older model's `plan` key fills in
// when the file holds none) for approval and, once approved,
// restores the mode the session was in before plan mode. Who approves, in order: the session's
// userDialog callback (a library), the permission mode to return to when it approves everything
// (bypassPermissions), an allow rule for ExitPlanMode, or a person asked through the permission
// prompt; with nobody to ask the prompt is refused and the session stays in plan mode.
// allowedPrompts become session allow rules for Bash only when a person (or the callback) granted
// them: a rule that approves plans in advance does not approve the commands a plan asks for.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod";
import { formatRule } from "../../permissions/rules/index.js";
import {
  allowedPromptProblem,
  allowedPromptRule,
  applyPermissionUpdates,
  leavePlanMode,
  modeAfterPlan,
} from "../../permissions/settings/index.js";
import { deliver } from "../../session/mailbox.js";
import { buildTool } from "../../tool/build-tool.js";
import type { PermissionMode, PermissionUpdate, ToolPermissionContext } from "../../tool/permission-types.js";
import { isTeammate, TEAM_LEAD_NAME } from "../../tool/team.js";
import type { ToolUseContext } from "../../tool/types.js";
import type { AllowedPrompt } from "../../tool/user-dialog.js";
import { planModeReminderSource } from "../plan-shared/reminder.js";
import { newRequestId, newTeamMessage } from "../team-shared/messages.js";
import { EXIT_PLAN_MODE_PROMPT, EXIT_PLAN_MODE_TOOL_NAME } from "./prompt.js";

const allowedPromptSchema = z.lazy(() =>
  z.strictObject({
    tool: z.literal("Bash"),
    prompt: z.string().trim().min(1).describe('A Bash rule pattern, e.g. "npm run test:*"'),
  }),
);

// Loose, as Claude Code's: other keys are accepted and ignored (its SDK type allows them), so an
// older model's `{plan: "..."}` is not refused as an unknown key. Only this tool is loose; the
// others stay strict, where an unknown key is a mistake worth telling the model about.
const inputSchema = z.lazy(() =>
  z.looseObject({
    allowedPrompts: z
      .array(allowedPromptSchema)
      .optional()
      .describe("Bash permissions the implementation needs, granted with the plan"),
  }),
);

export type ExitPlanModeInput = z.infer<typeof inputSchema>;

export type ExitPlanModeOutput =
  | {
      kind: "approved";
      planFilePath: string;
      mode: PermissionMode;
      /** Requested Bash patterns now allowed without asking, and those that were not granted. */
      granted: string[];
      notGranted: string[];
    }
  | { kind: "rejected"; planFilePath: string; feedback?: string }
  /** A teammate's plan, sent to its team's lead, whose answer arrives as a message. */
  | { kind: "submitted"; planFilePath: string; requestId: string };

const MAX_PLAN_CHARS_IN_PROMPT = 20_000;

/**
 * What the headless refusal says instead of a rule to add. As in Claude Code, a plan made in `-p`
 * cannot be approved there: nobody is asked. An allow rule for ExitPlanMode would go ahead, but
 * with nobody having read the plan, which is what plan mode is for: it is not suggested.
 */
const UNATTENDED_PLAN =
  "This run has nobody to approve a plan, so plan mode cannot end here: give the plan as your final answer. To carry it out, the user reviews it and runs again without plan mode (for example --continue with --permission-mode acceptEdits), or approves it from an Agent SDK host (canUseTool, --permission-prompt-tool stdio).";

function planFileOf(context: ToolUseContext): string {
  const path = context.getAppState().toolPermissionContext.planFilePath;
  if (path === undefined) throw new Error("this session has no plan file");
  return path;
}

async function readPlan(path: string): Promise<string | undefined> {
  try {
    const text = await readFile(path, "utf8");
    return text.trim() === "" ? undefined : text;
  } catch {
    return undefined;
  }
}

/**
 * The plan an older model sends in the call itself (`plan`, the key of Claude Code's first
 * ExitPlanMode), when it is a non-blank string. The plan file wins when it holds a plan: it is
 * what plan mode had the model write, what the user may have edited and what the approval names;
 * the key fills in only when the file is missing or blank, and is then saved there (adoptPlanKey).
 */
function planKeyOf(input: ExitPlanModeInput): string | undefined {
  const plan = input.plan;
  return typeof plan === "string" && plan.trim() !== "" ? plan : undefined;
}

async function planFor(path: string, input: ExitPlanModeInput): Promise<string | undefined> {
  return (await readPlan(path)) ?? planKeyOf(input);
}

/** Saves a `plan` key's text as the plan file when the file holds none, so the approved plan is on disk. */
async function adoptPlanKey(path: string, input: ExitPlanModeInput): Promise<void> {
  const plan = planKeyOf(input);
  if (plan === undefined || (await readPlan(path)) !== undefined) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, plan.endsWith("\n") ? plan : `${plan}\n`, "utf8");
}

function sessionAllowUpdate(prompts: readonly AllowedPrompt[]): PermissionUpdate {
  return { type: "addRules", behavior: "allow", rules: prompts.map(allowedPromptRule), destination: "session" };
}

/**
 * The patterns that may be granted at all. One that cannot (it would allow any code, or is no
 * pattern) never stops the plan from reaching the user: it is left out of what they are offered
 * and reported back as not granted, with why.
 */
function grantable(prompts: readonly AllowedPrompt[]): AllowedPrompt[] {
  return prompts.filter((prompt) => allowedPromptProblem(prompt) === undefined);
}

/** The patterns that cannot be granted, each with why, as the model and the user read them. */
function ungrantable(prompts: readonly AllowedPrompt[]): string[] {
  return prompts.flatMap((prompt) => {
    const problem = allowedPromptProblem(prompt);
    return problem === undefined ? [] : [`${prompt.prompt} (cannot be granted: ${problem})`];
  });
}

/** The requested patterns a session allow rule now covers word for word, and the rest. */
function grantedPatterns(prompts: readonly AllowedPrompt[], permissions: ToolPermissionContext) {
  const allowed = new Set(permissions.rules.allow.map((rule) => formatRule(rule.value)));
  const granted: string[] = [];
  const notGranted: string[] = ungrantable(prompts);
  for (const prompt of grantable(prompts))
    (allowed.has(formatRule(allowedPromptRule(prompt))) ? granted : notGranted).push(prompt.prompt);
  return { granted, notGranted };
}

/** A teammate's plan goes to its lead's mailbox; the lead answers with plan_approval_response. */
async function submitToLead(context: ToolUseContext, planFilePath: string): Promise<ExitPlanModeOutput> {
  const team = context.getAppState().team;
  if (!team) throw new Error("You are not in a team.");
  const requestId = newRequestId("plan");
  const plan = (await readPlan(planFilePath)) ?? "";
  deliver(
    team.dir,
    TEAM_LEAD_NAME,
    newTeamMessage(team.memberName, {
      type: "plan_approval_request",
      request_id: requestId,
      plan_file_path: planFilePath,
      plan: plan.length > MAX_PLAN_CHARS_IN_PROMPT ? `${plan.slice(0, MAX_PLAN_CHARS_IN_PROMPT)}\n…` : plan,
    }),
  );
  context.channels.planApproval.put(requestId);
  return { kind: "submitted", planFilePath, requestId };
}

export const ExitPlanModeTool = buildTool<ExitPlanModeInput, ExitPlanModeOutput>({
  name: EXIT_PLAN_MODE_TOOL_NAME,
  // Talks with the user or steers the main session: never a plain subagent's. A teammate has it:
  // its lead approves its plan.
  subagentAccess: "teammates",
  searchHint: "present plan for approval leave plan mode",
  shouldDefer: true,
  attachments: [planModeReminderSource],
  maxResultSizeChars: 10_000,
  inputSchema,
  prompt: async () => EXIT_PLAN_MODE_PROMPT,
  description: async () => "Present the plan for approval",
  // It changes no file and runs nothing; it changes the session's mode, which is what its own
  // approval is for. Plan mode must not turn that approval into a second question.
  isReadOnly: () => true,
  toAutoClassifierInput: (input) =>
    `leave plan mode${input.allowedPrompts?.length ? `; allow Bash: ${input.allowedPrompts.map((p) => p.prompt).join(", ")}` : ""}`,

  async validateInput(input, context) {
    const permissions = context.getAppState().toolPermissionContext;
    if (permissions.mode !== "plan") {
      return {
        result: false,
        message: "You are not in plan mode, so there is no plan to approve. Go on with the work.",
        errorCode: 1,
      };
    }
    const path = permissions.planFilePath;
    if (path === undefined || (await planFor(path, input)) === undefined) {
      return {
        result: false,
        message: `The plan file ${path ?? "(none)"} is missing or empty. Write your plan there first (Write), then call ExitPlanMode.`,
        errorCode: 2,
      };
    }
    return { result: true };
  },

  async checkPermissions(input, context) {
    if (isTeammate(context)) {
      return { behavior: "allow", decisionReason: { type: "tool", reason: "a teammate's plan goes to its team lead" } };
    }
    if (context.options.userDialog?.approvePlan) {
      return { behavior: "allow", decisionReason: { type: "tool", reason: "the session's userDialog approves plans" } };
    }
    const state = context.getAppState();
    const next = modeAfterPlan(state);
    if (next === "bypassPermissions") {
      return { behavior: "allow", decisionReason: { type: "mode", mode: "bypassPermissions" } };
    }
    const path = planFileOf(context);
    const plan = (await planFor(path, input)) ?? "";
    const prompts = grantable(input.allowedPrompts ?? []);
    const refused = ungrantable(input.allowedPrompts ?? []);
    const shown = plan.length > MAX_PLAN_CHARS_IN_PROMPT ? `${plan.slice(0, MAX_PLAN_CHARS_IN_PROMPT)}\n…` : plan;
    const asks = `${
      prompts.length ? `\nIt asks to run without asking: ${prompts.map((p) => `Bash(${p.prompt})`).join(", ")}.` : ""
    }${refused.length ? `\nNot offered: ${refused.join("; ")}.` : ""}`;
    return {
      behavior: "ask",
      message: `The plan in ${path} is ready: leaving plan mode needs the user's approval of the plan, and until then nothing may be changed.${asks}\n\n${shown}`,
      decisionReason: {
        type: "tool",
        reason: "leaving plan mode needs the user's approval of the plan",
        unattended: UNATTENDED_PLAN,
      },
      suggestions: prompts.length ? [sessionAllowUpdate(prompts)] : undefined,
    };
  },

  async call(input, context) {
    const planFilePath = planFileOf(context);
    await adoptPlanKey(planFilePath, input);
    if (isTeammate(context)) return { data: await submitToLead(context, planFilePath) };
    const prompts = input.allowedPrompts ?? [];
    // A person who approved with "auto-accept edits" or "manually approve edits" has set the mode
    // with the answer; otherwise the session returns to the mode it had before plan mode.
    const chosen = context.getAppState().toolPermissionContext.mode;
    const nextMode = chosen !== "plan" ? chosen : modeAfterPlan(context.getAppState());
    const approvePlan = context.options.userDialog?.approvePlan;
    if (approvePlan) {
      const plan = (await readPlan(planFilePath)) ?? "";
      const answer = await approvePlan(
        { plan, planFilePath, allowedPrompts: grantable(prompts), nextMode },
        context.abortController.signal,
      );
      if (!answer.approved) return { data: { kind: "rejected", planFilePath, feedback: answer.feedback } };
      const granted = grantable(answer.allowedPrompts ?? prompts);
      if (granted.length > 0) {
        context.setAppState((prev) => ({
          ...prev,
          toolPermissionContext: applyPermissionUpdates(
            prev.toolPermissionContext,
            [sessionAllowUpdate(granted)],
            context.options.cwd,
          ),
        }));
      }
    }
    // This call's result tells the model plan mode is off: no separate reminder (plan-shared/reminder.ts).
    context.setAppState((prev) => ({ ...leavePlanMode(prev, nextMode), planModeReminderTurn: undefined }));
    const { granted, notGranted } = grantedPatterns(prompts, context.getAppState().toolPermissionContext);
    return { data: { kind: "approved", planFilePath, mode: nextMode, granted, notGranted } };
  },

  mapToolResult(output, toolUseId) {
    if (output.kind === "submitted") {
      return {
        type: "tool_result",
        tool_use_id: toolUseId,
        content: `Your plan (${output.planFilePath}) was sent to the team lead for approval (request ${output.requestId}). You stay in plan mode until the lead approves it: end your turn and wait for the answer.`,
      };
    }
    if (output.kind === "rejected") {
      const feedback = output.feedback ? ` The user said: ${output.feedback}` : "";
      return {
        type: "tool_result",
        tool_use_id: toolUseId,
        content: `The plan was not approved.${feedback} You are still in plan mode: revise the plan in ${output.planFilePath} and call ExitPlanMode again when it is ready.`,
      };
    }
    const lines = [
      `The plan was approved. Plan mode is off; the permission mode is now ${output.mode}. Carry out the plan in ${output.planFilePath}.`,
    ];
    if (output.granted.length) lines.push(`Bash commands allowed without asking: ${output.granted.join(", ")}.`);
    if (output.notGranted.length)
      lines.push(`Not granted (these will be asked for as usual): ${output.notGranted.join(", ")}.`);
    return { type: "tool_result", tool_use_id: toolUseId, content: lines.join("\n") };
  },
});
