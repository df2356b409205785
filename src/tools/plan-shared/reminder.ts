// Plan mode shown to the model before every request while it lasts, as an attachment the plan
// tools bring (EnterPlanMode and ExitPlanMode share this one source): the full instructions every
// few turns, one line in between. Also when the session started in plan mode
// (--permission-mode plan): the plan tools are in the pool either way. When plan mode ends other
// than by an approved plan (the SDK's setPermissionMode, shift+tab, an editor's mode picker), the
// next request says so once: the model's history still tells it to change nothing, and nothing
// else would tell it that it now may. ExitPlanMode's own result says it, so that path is quiet.
import { readFile } from "node:fs/promises";
import type { AppState } from "../../tool/app-state.js";
import { isTeammate } from "../../tool/team.js";
import type { AttachmentSource } from "../../tool/types.js";

/** The full plan-mode instructions at most this often; a one-line reminder in between. */
export const PLAN_MODE_FULL_EVERY_TURNS = 5;
/** Most of a plan file put back after a compaction. */
const MAX_PLAN_CHARS_AFTER_COMPACTION = 20_000;

export function planModeInstructions(planFilePath: string | undefined): string {
  const planFile = planFilePath
    ? `The one exception is the plan file, ${planFilePath}: write your plan there (Write creates it, Edit refines it).`
    : "";
  return [
    `Plan mode is on. Explore and design, but do not change anything yet: no edits, no writes, no commands that change the system, no commits. ${planFile}`.trim(),
    "1. Read the code the task touches; look for what already exists that you can reuse.",
    "2. Settle open questions; ask the user (AskUserQuestion) when a choice is theirs.",
    "3. Write the plan: the changes file by file, their order, and how to verify them (the tests to run).",
    "4. Call ExitPlanMode to have the plan approved (allowedPrompts: Bash commands the work will need).",
    "Do not implement anything before the plan is approved.",
  ].join("\n");
}

/** The reminder due at `turn` and the turn of the last full one (undefined: plan mode is off). */
export function planModeReminder(state: AppState, turn: number): { text?: string; lastFullTurn?: number } {
  const permissions = state.toolPermissionContext;
  const last = state.planModeReminderTurn;
  if (permissions.mode !== "plan") {
    // A reminder went out and plan mode ended without ExitPlanMode (which clears the turn).
    if (last === undefined) return {};
    return {
      text: `Plan mode is off: the permission mode is now ${permissions.mode}. You may now make changes, run commands and carry out the work.`,
    };
  }
  if (last === undefined || turn - last >= PLAN_MODE_FULL_EVERY_TURNS) {
    return { text: planModeInstructions(permissions.planFilePath), lastFullTurn: turn };
  }
  const where = permissions.planFilePath ? ` except the plan file ${permissions.planFilePath}` : "";
  return {
    text: `Plan mode is still on: change nothing${where}. Call ExitPlanMode when the plan is ready.`,
    lastFullTurn: last,
  };
}

export const planModeReminderSource: AttachmentSource = {
  kind: "plan_mode",
  collect({ context, turn }) {
    // Only the main thread and teammates plan (a teammate's plan goes to its lead); a plain
    // subagent's requests carry no plan-mode reminder.
    if (context.agentId !== undefined && !isTeammate(context)) return undefined;
    const { text, lastFullTurn } = planModeReminder(context.getAppState(), turn);
    if (context.getAppState().planModeReminderTurn !== lastFullTurn) {
      context.setAppState((prev) => ({ ...prev, planModeReminderTurn: lastFullTurn }));
    }
    return text ? [{ text }] : undefined;
  },
  async afterCompaction({ context }) {
    const permissions = context.getAppState().toolPermissionContext;
    if (permissions.mode !== "plan" && permissions.planFilePath === undefined) return undefined;
    let plan: string | undefined;
    try {
      if (permissions.planFilePath) plan = await readFile(permissions.planFilePath, "utf8");
    } catch {
      plan = undefined;
    }
    const parts: string[] = [];
    if (permissions.mode === "plan") parts.push(planModeInstructions(permissions.planFilePath));
    if (plan?.trim()) {
      const shown =
        plan.length > MAX_PLAN_CHARS_AFTER_COMPACTION ? `${plan.slice(0, MAX_PLAN_CHARS_AFTER_COMPACTION)}\n…` : plan;
      parts.push(`The plan file ${permissions.planFilePath} holds:\n${shown}`);
    }
    return parts.length > 0 ? parts.join("\n\n") : undefined;
  },
};
