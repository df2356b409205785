// Shell-safety analysis for library users: the Bash permission check, read-only classification,
// command splitting and rule suggestions. The bash grammar loads lazily on first use.

export { analyzeCommand, type ScriptAnalysis } from "./analyze.js";
export {
  type BashPermissionRequest,
  checkBashCommandPermission,
  isReadOnlyCommand,
  preloadBashAnalysis,
  splitBashCommand,
  suggestedBashPrefix,
  suggestedPrefixOfText,
} from "./bash-permission.js";
export { decideBashPermission } from "./decide.js";
export { loadBashAnalysis } from "./lazy-analysis.js";
export type { Finding } from "./validators/types.js";
