// `warden teammate` (internal): one teammate of a lead session in process mode. The lead starts it
// (src/cli/teammates/process-runner.ts) and talks to it over stdin and stdout; see
// src/cli/teammates/child.ts. Not meant to be run by hand.
export async function run(): Promise<number> {
  const { runTeammateChild } = await import("../teammates/child.js");
  return runTeammateChild();
}
