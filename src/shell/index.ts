// Shell analysis for library users: parse a Bash command, split it into the simple commands bash
// will run, and run the security validators. Pure analysis: what a command may do is decided by
// the permission engine (src/permissions/bash/). The bash grammar loads lazily on first use.
//
// Inside, each folder is one concern with an index.ts as its face, and imports only the ones
// before it in this list:
//   words/      a shell word's syntax → the arguments bash passes; option parsing
//   parse/      the grammar, quote contexts, the split into simple commands, a fallback splitter
//   commands/   what one simple command runs (wrappers peeled) and which files it writes
//   validators/ the security checks, each with the commands it must and must not flag
//   read-only/  which commands only read
//   analysis/   one command analysed whole (the entry point of the above)
//   sandbox/    the bubblewrap policy for running commands (independent of the analysis)
//   exit-code/  what a finished command's exit code means (independent of the analysis)

export { analyzeCommand, type ScriptAnalysis, splitBashCommand } from "./analysis/index.js";
export type { Finding } from "./validators/index.js";
