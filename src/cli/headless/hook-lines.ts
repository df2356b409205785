// Claude Code's hook lines in stream-json (--include-hook-events): hook_started when a command hook
// starts, hook_progress while it writes (everything so far, so a host shows the latest line whole),
// hook_response when it ends. Both stream-json sessions write them: `-p --output-format
// stream-json` and the Agent SDK's stream-json input.
import type { HookRunner } from "../../hooks/hook-runner.js";

type SystemLine = (fields: Record<string, unknown>) => void;

/** Writes the session's hook lines through `system` from now on. */
export function reportHookLines(hooks: HookRunner | undefined, system: SystemLine): void {
  hooks?.observe((event) =>
    system({
      subtype: `hook_${event.kind}`,
      hook_id: event.hookId,
      hook_name: event.hookName,
      hook_event: event.event,
      ...(event.kind === "progress" && {
        stdout: event.stdout,
        stderr: event.stderr,
        output: event.stdout + event.stderr,
      }),
      ...(event.kind === "response" && {
        output: event.stdout + event.stderr,
        stdout: event.stdout,
        stderr: event.stderr,
        ...(event.exitCode !== null && { exit_code: event.exitCode }),
        outcome: event.outcome,
      }),
    }),
  );
}
