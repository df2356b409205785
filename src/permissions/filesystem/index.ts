// Path checks: may a file tool read or write this path (path rules of its kind of access, the
// working-directory boundary, symlinks and `..` followed), and the bypass-immune safety checks on
// protected places (.git/, settings folders, shell start-up files, files other tools run on their
// own such as .envrc and the folder core.hooksPath names, UNC paths). The Bash decision
// (../bash/) uses the same boundary and safety checks for the paths a command touches.

export { configuredHooksFolder } from "./git-hooks-path.js";
export {
  addFoldersSuggestion,
  checkReadPermission,
  checkWritePermission,
  isInsideWorkingDirectories,
} from "./path-checks.js";
export { isPlanFile, PLAN_FILE_REASON } from "./plan-file.js";
export { READ_RULE_NAME, ruleNamesFor, WRITE_RULE_NAME } from "./rule-family.js";
export { isUncPath, protectedPathReason } from "./safety.js";
export { secretPathReason } from "./secret-paths.js";
