// Shell analysis for library users: parse a Bash command, split it into the simple commands bash
// will run, and run the security validators. Pure analysis: what a command may do is decided by
// the permission engine (src/permissions/bash/). The bash grammar loads lazily on first use.

export { analyzeCommand, type ScriptAnalysis, splitBashCommand } from "./analyze.js";
export type { Finding } from "./validators/types.js";
