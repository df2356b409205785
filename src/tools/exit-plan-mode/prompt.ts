// The model-facing text of ExitPlanMode.
export const EXIT_PLAN_MODE_TOOL_NAME = "ExitPlanMode";

export const EXIT_PLAN_MODE_PROMPT = `Asks the user to approve your plan and end plan mode. Call it in plan mode once the plan file (its path is in the plan-mode reminder) holds the finished plan: the tool reads the plan from there. Use it for plans of implementation work, not for research; settle open questions with AskUserQuestion first.

- allowedPrompts: Bash permissions the implementation will need, as rule patterns, e.g. {"tool": "Bash", "prompt": "npm run test:*"}. They are granted with the plan; patterns that would allow any command are refused.
If the plan is not approved you stay in plan mode: revise it and call again.`;
