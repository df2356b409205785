// Which commands only read: per-command knowledge of flags and subcommands that write, run
// programs or reach the network (git, sed, find, jq, awk and a table of simpler tools).

export { classifyReadOnly } from "./classify.js";
export { locateGitSubcommand } from "./git.js";
export { sedScriptsFromOptions, unsafeSedCommand } from "./sed.js";
export type { ReadOnlyVerdict } from "./verdict.js";
