// The permission engine's say on Bash commands: deny and ask rules met on every command bash would
// run, safety findings that even bypass mode asks about, read-only commands allowed, the rule to
// offer with a prompt. Built on the shell analysis (src/shell/), which it never changes.
//
// Heavy (it loads the analysis and the bash grammar): code on the start-up path goes through
// ./lazy-analysis.ts instead, which loads this on first use.

export {
  type BashPermissionRequest,
  checkBashCommandPermission,
  isReadOnlyCommand,
  preloadBashAnalysis,
  suggestedBashPrefix,
  suggestedPrefixOfText,
} from "./check.js";
export { decideBashPermission } from "./decide.js";
export { loadBashAnalysis } from "./lazy-analysis.js";
