// The bash grammar, loaded once and only when a command first needs deciding: the wasm parser
// costs tens of milliseconds to start, which must not land on every process start.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Language, Parser, Tree } from "web-tree-sitter";
import { type WasmModule, withBaselineWasmOnly } from "./baseline-wasm.js";
import { type Pace, Pacer } from "./pacer.js";

let loadedParser: Parser | undefined;
let loading: Promise<Parser> | undefined;
let pacer = new Pacer();
let compileHandedOff!: () => void;
const compiling = new Promise<void>((resolve) => {
  compileHandedOff = resolve;
});

/**
 * Tests and benchmarks set WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS to make the grammar load slowly, as
 * on a busy machine, and check that nothing depends on it loading before the first tool call.
 */
function injectedLoadDelay(variable = "WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS"): Promise<void> | undefined {
  const ms = Number(process.env[variable]);
  return Number.isFinite(ms) && ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
}

/**
 * Each step holds the thread for ~10-30 ms (compiling web-tree-sitter's JavaScript; reading and
 * compiling the wasm files): a warm-up's `pace` is awaited before each, so that a model answer
 * arriving mid-load is not made to wait behind the rest of it. Both wasm modules (web-tree-sitter's
 * runtime and the grammar) compile whole on V8's background threads while web-tree-sitter's
 * JavaScript loads (see BaselineWasm.compileWhole).
 */
async function loadParser(pace: Pace | undefined): Promise<Parser> {
  await injectedLoadDelay();
  await pacer.gate(pace);
  const require = createRequire(import.meta.url);
  const wasmFiles = [
    require.resolve("web-tree-sitter/web-tree-sitter.wasm"),
    require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"),
  ];
  const { treeSitter, runtime, grammar } = await withBaselineWasmOnly(async (wasm) => {
    const compiled = wasm.compileWhole(wasmFiles.map((file) => readFileSync(file)));
    compileHandedOff();
    const treeSitter = await import("web-tree-sitter");
    const [runtime, grammar] = (await compiled) as [WasmModule, WasmModule];
    return { treeSitter, runtime, grammar };
  });
  await pacer.gate(pace);
  const language = await withBaselineWasmOnly(async () => {
    // WARDEN_TEST_GRAMMAR_COMPILE_DELAY_MS holds V8's changed flags for longer (the code cache's tests).
    await injectedLoadDelay("WARDEN_TEST_GRAMMAR_COMPILE_DELAY_MS");
    // web-tree-sitter instantiates the runtime compiled above instead of compiling its own copy.
    // A failed instantiation never calls emscripten back: `failed` rejects the load instead.
    const { hook, failed } = instantiateWith(runtime);
    await Promise.race([treeSitter.Parser.init({ instantiateWasm: hook }), failed]);
    return treeSitter.Language.loadSync(grammar) as Language;
  });
  const parser = new treeSitter.Parser();
  parser.setLanguage(language);
  loadedParser = parser;
  return parser;
}

/** Emscripten's instantiateWasm hook: instantiates `compiled` with the imports the runtime asks for. */
function instantiateWith(compiled: WasmModule) {
  let fail!: (error: unknown) => void;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const hook = (imports: WebAssemblyImports, done: (instance: unknown, module: WasmModule) => void): object => {
    const { instantiate } = (globalThis as unknown as { WebAssembly: WasmInstantiate }).WebAssembly;
    instantiate(compiled, imports).then((instance) => done(instance, compiled), fail);
    return {};
  };
  return { hook, failed };
}

type WebAssemblyImports = Record<string, Record<string, unknown>>;
interface WasmInstantiate {
  instantiate(module: WasmModule, imports: WebAssemblyImports): Promise<unknown>;
}

/**
 * Starts (or joins) the one-time grammar load; resolves once parsing is synchronous. A warm-up
 * passes `pace` (see pacer.ts); without it the load, paced or not so far, goes on at full speed.
 */
export function loadShellParser(pace?: Pace): Promise<Parser> {
  if (loadedParser) return Promise.resolve(loadedParser);
  if (pace === undefined) pacer.hurry();
  loading ??= loadParser(pace).catch((error: unknown) => {
    loading = undefined;
    pacer = new Pacer();
    throw error;
  });
  return loading;
}

/**
 * Resolves once a grammar load has handed its wasm to V8's background threads (~50 ms of compiling
 * during which the load mostly leaves this thread idle): a moment for other one-time work that
 * blocks the thread, such as starting a process, to cost the load nothing.
 */
export function whenGrammarCompiles(): Promise<void> {
  return compiling;
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
