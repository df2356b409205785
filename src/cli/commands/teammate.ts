// `warden teammate --input-format stream-json --output-format stream-json` (internal): one
// teammate of a lead session in process mode. The lead starts it (src/cli/teammates/process-runner.ts)
// and talks to it with the Agent SDK's control protocol on stdin and stdout; see
// src/cli/teammates/child.ts. Not meant to be run by hand.
export async function run(argv: string[]): Promise<number> {
  const { runTeammateChild } = await import("../teammates/child.js");
  return runTeammateChild(argv);
}
