// The model-facing text of AskUserQuestion, and what it says when nobody can answer.
export const ASK_USER_QUESTION_TOOL_NAME = "AskUserQuestion";

export const ASK_USER_QUESTION_PROMPT = `Asks the user one to four multiple-choice questions and waits for the answers.

Use it when a decision is the user's to make and the code cannot tell you: unclear requirements, a choice between approaches with different trade-offs, preferences. Do not ask what you can find out by reading, and do not use it to get a plan approved (ExitPlanMode does that).
- header: a short label shown with the question (at most 12 characters), e.g. "Database".
- options: 2-4 distinct choices, each a short label and what choosing it means. Put the one you recommend first, with "(Recommended)" at the end of its label. The user may always answer in their own words instead.
- multiSelect: true when several options may be chosen together.`;

/** The tool's answer when no person can be asked: the model must go on by itself. */
export const NOBODY_TO_ANSWER =
  "Nobody can answer questions in this session: it runs without a person. Do not ask again. Decide each question yourself (pick what you judge best), go on with the work, and say in your final answer which assumptions you made.";

export const DECLINED_TO_ANSWER =
  "The user did not answer your questions. Decide them yourself (pick what you judge best), go on, and say in your final answer which assumptions you made.";
