// The Bash tool's door to the shell analysis, which is large (the validators, the read-only
// tables) and needs the tree-sitter grammar. Loading it statically put ~20 ms of compile time on
// every session's start-up, Bash used or not; through this door it loads with the grammar, either
// on the first Bash call or when a session asks for it early (after its first model request).
import type { PermissionResult } from "../../tool/permission-types.js";
import { registeredAnalysis } from "./analysis-registry.js";
import type { BashPermissionRequest } from "./check.js";

type Analysis = typeof import("./check.js");

let loading: Promise<Analysis> | undefined;

/** Loads the analysis and the grammar once; later calls share the same promise. */
export function loadBashAnalysis(): Promise<Analysis> {
  loading ??= import("./check.js").then(async (analysis) => {
    await analysis.preloadBashAnalysis();
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
export function bashAnalysisPending(): Promise<void> | undefined {
  if (registeredAnalysis()?.isLoaded()) return undefined;
  return loadBashAnalysis().then(
    () => undefined,
    () => undefined,
  );
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
