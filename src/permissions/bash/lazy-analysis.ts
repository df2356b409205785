// The Bash tool's door to the shell analysis, which is large (the validators, the read-only
// tables) and needs the tree-sitter grammar. Loading it statically put ~20 ms of compile time on
// every session's start-up, Bash used or not; through this door it loads with the grammar, either
// on the first Bash call or when a session asks for it early (after its first model request).
import { type Pace, Pacer } from "../../shell/parse/index.js";
import type { PermissionResult } from "../../tool/permission-types.js";
import { registeredAnalysis } from "./analysis-registry.js";
import type { BashPermissionRequest } from "./check.js";

type Analysis = typeof import("./check.js");

let loading: Promise<Analysis> | undefined;
const pacer = new Pacer();

/**
 * Loads the analysis and the grammar once; later calls share the same promise. A warm-up passes
 * `pace` (shell/parse/pacer.ts): each step then waits for it; a call without it hurries the load.
 */
export function loadBashAnalysis(pace?: Pace): Promise<Analysis> {
  if (pace === undefined) pacer.hurry();
  loading ??= import("./check.js").then(async (analysis) => {
    await pacer.gate(pace);
    // Through this pacer's gate, so that hurrying this load also opens the grammar's gates.
    await analysis.preloadBashAnalysis(pace && (() => pacer.gate(pace)));
    return analysis;
  });
  return loading;
}

export async function checkBashCommandPermissionLazily(request: BashPermissionRequest): Promise<PermissionResult> {
  const analysis = await loadBashAnalysis();
  return analysis.checkBashCommandPermission(request);
}

/**
 * Undefined once the analysis and its grammar are loaded (isReadOnlyCommandIfLoaded then answers
 * exactly); until then the loading, started now if it had not started. For the Bash tool's
 * whenReady, which the executor awaits before it judges a call's concurrency. Never rejects: a
 * grammar that cannot load leaves the placeholder answer (fail closed).
 */
export function bashAnalysisPending(options?: { pace?: Pace }): Promise<void> | undefined {
  if (registeredAnalysis()?.isLoaded()) return undefined;
  return loadBashAnalysis(options?.pace).then(
    () => undefined,
    () => undefined,
  );
}

/** True once the analysis and its grammar are loaded: isReadOnlyCommandIfLoaded then answers exactly. */
export function isBashAnalysisLoaded(): boolean {
  return registeredAnalysis()?.isLoaded() === true;
}

/**
 * Synchronous, for isReadOnly/isConcurrencySafe: until the analysis (and its grammar) is loaded
 * the answer is false (fail closed: the call is treated as writing and runs alone) and loading
 * starts. The analysis registers itself when its module is evaluated, however it was imported.
 */
export function isReadOnlyCommandIfLoaded(command: string, cwd?: string): boolean {
  const analysis = registeredAnalysis();
  if (!analysis) {
    loadBashAnalysis().catch(() => undefined);
    return false;
  }
  return analysis.isReadOnlyCommand(command, cwd);
}
