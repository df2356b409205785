// The model-facing text of EnterPlanMode.
export const ENTER_PLAN_MODE_TOOL_NAME = "EnterPlanMode";

export const ENTER_PLAN_MODE_PROMPT = `Switches the session to plan mode, to agree on a design before changing anything. Use it for a new feature, a change across several files, a choice between approaches or unclear requirements; skip it for small, clear fixes and for questions.

In plan mode you may read and search but change nothing, except the plan file whose path the result gives. Explore the code, write the plan there, then call ExitPlanMode to have it approved.`;
