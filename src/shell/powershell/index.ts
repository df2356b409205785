// PowerShell as text: the tree-sitter-powershell grammar (loaded on first use) and the analysis of
// a script into the commands it runs and what it does besides. Says what a script is, never
// whether it may run (src/permissions/powershell/ decides).
export { analyzePowerShell, type PsAnalysis, type PsArgument, type PsCommand } from "./analyze.js";
export {
  type CmdletClass,
  canonicalCommandName,
  classOfCmdlet,
  NATIVE_ON_UNIX,
  READ_TARGET_PARAMETERS,
  readsPaths,
  WHOLE_TREE_PARAMETERS,
  WRITE_TARGET_PARAMETERS,
  writesPaths,
} from "./cmdlets.js";
export { loadPowerShellParser } from "./parser.js";
