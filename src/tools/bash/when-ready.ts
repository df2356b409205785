// What the Bash tool needs before it can judge and run a call: the shell analysis with its grammar
// (bashAnalysisPending), and, for the first command's launch, the orphan guard's watcher process.
import { bashAnalysisPending } from "../../permissions/bash/lazy-analysis.js";
import { prepareOrphanGuard } from "../../process/orphan-guard.js";
import { whenGrammarCompiles } from "../../shell/parse/index.js";
import type { WhenReadyOptions } from "../../tool/types.js";

/**
 * The Bash tool's whenReady. When a call waits for the analysis (no `pace`: the executor's, not a
 * warm-up's), the watcher starts while the grammar's wasm compiles: its start blocks the thread for
 * ~10 ms (a fork and exec), which the load leaves idle then, where at the first launch it came after
 * the load, before the first command. A warm-up starts no process: the session may never run one.
 */
export function bashWhenReady(options?: WhenReadyOptions): Promise<void> | undefined {
  const pending = bashAnalysisPending(options);
  if (pending && options?.pace === undefined) void whenGrammarCompiles().then(prepareOrphanGuard);
  return pending;
}
