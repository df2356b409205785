// A headless run that could not start: a bad flag or value, a schema that does not compile, settings
// that cannot be read, a prompt a hook blocked. One convention for all of them, Claude Code's: a
// short message on stderr (a usage error adds one line pointing to --help, never the whole help;
// nothing else does, since no option would help), exit 2 for bad usage and 1 for everything else,
// and a run that asked for JSON (json or stream-json) still gets its result line, an error result
// naming what went wrong, so a consumer reading stdout is never left empty.
import type { SetupFailureKind } from "../session/setup-error.js";

export type FailureFormat = "text" | "json" | "stream-json";

/** The line that points a person at the help instead of printing it. */
export const SEE_HELP = "Run 'warden --help' for the options.";

export interface SetupFailure {
  message: string;
  /** 2: the command line is wrong (usage); 1: the run could not start for another reason. */
  exitCode: number;
  /** What kind of failure (../session/setup-error.ts); by default usage for exit 2, else setup. */
  kind?: SetupFailureKind;
  format: FailureFormat;
  /** The session id asked for (--session-id), when there is one; otherwise a fresh one. */
  sessionId?: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** The prefix of the stderr line ("warden", "warden acp"). */
  command?: string;
}

/** Says what went wrong where the run's caller reads it; returns the exit code. */
export function reportSetupFailure(failure: SetupFailure): number {
  const command = failure.command ?? "warden";
  const hint = kindOf(failure) === "usage" ? `${SEE_HELP}\n` : "";
  failure.err(`${command}: ${failure.message}\n${hint}`);
  if (failure.format !== "text") failure.out(`${JSON.stringify(setupFailureResult(failure))}\n`);
  return failure.exitCode;
}

/** The result line of a run that never started, in the Agent SDK's error-result shape. */
export function setupFailureResult(failure: Pick<SetupFailure, "message" | "exitCode" | "sessionId" | "kind">): object {
  return {
    type: "result",
    // The Agent SDK knows these subtypes only; a run that could not start failed "during execution".
    subtype: "error_during_execution",
    is_error: true,
    duration_ms: 0,
    duration_api_ms: 0,
    num_turns: 0,
    result: "",
    session_id: failure.sessionId ?? crypto.randomUUID(),
    total_cost_usd: 0,
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
    modelUsage: {},
    permission_denials: [],
    // What kind of failure: the command line (usage), the set-up (settings, a transcript, ...), or
    // the prompt refused before the model saw it (blocked).
    error_kind: kindOf(failure),
    error: failure.message,
    errors: [failure.message],
    stop_reason: null,
    uuid: crypto.randomUUID(),
  };
}

function kindOf(failure: Pick<SetupFailure, "exitCode" | "kind">): SetupFailureKind {
  return failure.kind ?? (failure.exitCode === 2 ? "usage" : "setup");
}

/**
 * The output format a command line asks for, read from the raw arguments: used when the arguments
 * could not be parsed, so the failure still reaches a JSON reader. An unknown value counts as text.
 */
export function requestedFormat(argv: readonly string[]): FailureFormat {
  let format: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") break;
    if (arg === "--output-format") format = argv[i + 1];
    else if (arg.startsWith("--output-format=")) format = arg.slice("--output-format=".length);
  }
  return format === "json" || format === "stream-json" ? format : "text";
}

/** The --session-id value of a raw command line, when it has one. */
export function requestedSessionId(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--session-id") return argv[i + 1];
    if (arg.startsWith("--session-id=")) return arg.slice("--session-id=".length);
  }
  return undefined;
}
