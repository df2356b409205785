// The PowerShell grammar (tree-sitter-powershell 0.26.4, which ships its wasm), loaded once and
// only when a PowerShell command first needs deciding. It shares web-tree-sitter's runtime with
// the bash grammar: loading the bash parser initialises that runtime, then this language loads
// into it (`Language.load(path)`).
import { createRequire } from "node:module";
import type { Parser, Tree } from "web-tree-sitter";
import { loadShellParser } from "../parse/index.js";

let loading: Promise<Parser> | undefined;

async function loadParser(): Promise<Parser> {
  await loadShellParser();
  const treeSitter = await import("web-tree-sitter");
  const path = createRequire(import.meta.url).resolve("tree-sitter-powershell/tree-sitter-powershell.wasm");
  const language = await treeSitter.Language.load(path);
  const parser = new treeSitter.Parser();
  parser.setLanguage(language);
  return parser;
}

export function loadPowerShellParser(): Promise<Parser> {
  loading ??= loadParser().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Parses one script; the caller must `tree.delete()` it (wasm memory the GC never sees). */
export async function parsePowerShell(script: string): Promise<Tree> {
  const parser = await loadPowerShellParser();
  const tree = parser.parse(script);
  if (!tree) throw new Error("the PowerShell parser returned no tree");
  return tree;
}
