// A tiny meeting point so that code which must stay light at start-up (the Bash tool) can use the
// shell analysis once something has loaded it, without importing it statically.

export interface RegisteredAnalysis {
  /** False until the grammar is loaded (and then starts loading it). */
  isReadOnlyCommand(command: string, cwd?: string): boolean;
  /** True once the grammar is loaded: from then on isReadOnlyCommand answers exactly. */
  isLoaded(): boolean;
}

let current: RegisteredAnalysis | undefined;

export function registerAnalysis(analysis: RegisteredAnalysis): void {
  current = analysis;
}

export function registeredAnalysis(): RegisteredAnalysis | undefined {
  return current;
}
