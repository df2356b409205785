// What a finished command's exit code means (grep's 1 is "no matches", not a failure).

export { type CommandOutcome, interpretCommandResult, lastCommandName } from "./exit-semantics.js";
