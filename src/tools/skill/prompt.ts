// The model-facing text of the Skill tool.
export const SKILL_TOOL_NAME = "Skill";

export const SKILL_PROMPT = `Runs a skill: instructions (and files beside them) for one kind of task, installed by the user or the project. The skills you may run are listed in a system reminder, each with what it is for.

- When the task in front of you matches a skill's description, call this tool with its name before doing the work yourself; its instructions then join the conversation and you follow them.
- Pass the rest of the request in \`args\` (a file name, options), as the skill's argument hint suggests.
- A user message of the form "/name ..." names a skill or command: run it rather than guessing what it means.
- Run only listed skills, and do not run one again that is already loaded in this conversation.`;

/** Ends a listing that had to leave skills out. */
export const LISTING_CUT_NOTE = "more skills exist that did not fit this list; run one only when the user names it";
