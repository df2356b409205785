// A hook function of the embedding program (the Agent SDK's hook callbacks), answered in a
// command's terms: its JSON answer is the stdout, a throw or a timeout a failure.
import type { HookCallbackRunner } from "./hook-types.js";
import type { HookCommandResult } from "./run-command.js";

export async function runCallbackHook(
  run: HookCallbackRunner | undefined,
  id: string,
  input: Record<string, unknown>,
  toolUseId: string | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HookCommandResult> {
  const base = { exitCode: 0, signal: null, stderr: "", timedOut: false };
  if (!run) return { ...base, stdout: "" };
  let timer: NodeJS.Timeout | undefined;
  // An aborted signal ends the wait too: SessionEnd's bound holds for a host that never answers.
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
    if (signal?.aborted) resolve("timeout");
    signal?.addEventListener("abort", () => resolve("timeout"), { once: true });
  });
  try {
    const answer = await Promise.race([run(id, input, toolUseId, signal), timedOut]);
    if (answer === "timeout") return { ...base, exitCode: null, stdout: "", timedOut: true };
    return { ...base, stdout: answer === undefined || answer === null ? "" : JSON.stringify(answer) };
  } catch (error) {
    return { ...base, exitCode: 1, stdout: "", stderr: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
