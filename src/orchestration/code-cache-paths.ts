// The built CLI compiles its main chunks through V8's code cache (scripts/cached-chunks.mjs),
// written at the exit of a build's first run with what that run compiled. Code a later run takes
// for the first time (a tool nobody called before) would otherwise be compiled on every start, so
// the session names the paths it takes, and the cache is rewritten at the exit of a run that took
// one its writers had not. Only a name goes into a set here; nothing else happens until exit.

/** What the cache's loader reads at exit. */
type WithCodePaths = typeof globalThis & { __wardenCodePaths?: Set<string> };

/** Notes that this process ran `path` (e.g. "tool:Read"); cheap enough for every tool call. */
export function noteCodePath(path: string): void {
  const global = globalThis as WithCodePaths;
  global.__wardenCodePaths ??= new Set();
  global.__wardenCodePaths.add(path);
}

/** The paths noted so far, for tests. */
export function notedCodePaths(): readonly string[] {
  return [...((globalThis as WithCodePaths).__wardenCodePaths ?? [])];
}
