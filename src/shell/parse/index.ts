// From text to structure: the tree-sitter-bash grammar (loaded on first use), the quote context of
// every character, the split of a script into the simple commands bash runs (with their
// assignments, redirections and the directory each runs in), and a quote-aware fallback splitter
// for text the grammar rejects.

export { nextDirectory, resolveShellPath } from "./directory-change.js";
export { fallbackSimpleCommands } from "./fallback-lexer.js";
export { type Pace, Pacer } from "./pacer.js";
export { loadedShellParser, loadShellParser, parseWith, whenGrammarCompiles } from "./parser.js";
export { joinLineContinuations, QuoteContext, scanQuoteContexts } from "./quote-scan.js";
export {
  type Assignment,
  type CommandOrigin,
  type Heredoc,
  type Redirect,
  type ScriptStructure,
  type SimpleCommand,
  splitScript,
} from "./split.js";
