// The bash grammar, loaded once and only when a command first needs deciding: the wasm parser
// costs tens of milliseconds to start, which must not land on every process start.
import { createRequire } from "node:module";
import type { Language, Parser, Tree } from "web-tree-sitter";

let loadedParser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/**
 * Tests and benchmarks set WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS to make the grammar load slowly, as
 * on a busy machine, and check that nothing depends on it loading before the first tool call.
 */
function injectedLoadDelay(): Promise<void> | undefined {
  const ms = Number(process.env.WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS);
  return Number.isFinite(ms) && ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
}

async function loadParser(): Promise<Parser> {
  await injectedLoadDelay();
  const treeSitter = await import("web-tree-sitter");
  await treeSitter.Parser.init();
  const require = createRequire(import.meta.url);
  const grammarPath = require.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  const language: Language = await treeSitter.Language.load(grammarPath);
  const parser = new treeSitter.Parser();
  parser.setLanguage(language);
  loadedParser = parser;
  return parser;
}

/** Starts (or joins) the one-time grammar load; resolves once parsing is synchronous. */
export function loadShellParser(): Promise<Parser> {
  if (loadedParser) return Promise.resolve(loadedParser);
  loading ??= loadParser().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The parser if it is already loaded; callers that cannot wait fail closed without it. */
export function loadedShellParser(): Parser | undefined {
  return loadedParser;
}

/**
 * Parses one script. The caller owns the tree and must call `tree.delete()`: trees live in wasm
 * memory that the JavaScript garbage collector never sees.
 */
export function parseWith(parser: Parser, script: string): Tree {
  const tree = parser.parse(script);
  if (!tree) throw new Error("the bash parser returned no tree");
  return tree;
}
