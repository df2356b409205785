// One command analysed whole: parsed, split into every simple command bash would run (inside
// substitutions, `sh -c`/`eval` strings and find -exec too), wrappers peeled, validators run.

export {
  analyzeCommand,
  analyzeCommandWith,
  observeAnalyses,
  type RunValidators,
  type ScriptAnalysis,
  splitBashCommand,
} from "./analyze.js";
export { type CommandFacts, commandFacts } from "./command-facts.js";
