/**
 * What kind of failure: `usage` the command line is wrong (exit 2, the one kind that points at
 * --help); `setup` the session could not be set up (exit 1: no earlier session to continue, a
 * transcript that cannot be read); `blocked` the prompt itself was refused before the model saw it
 * (exit 1: a UserPromptSubmit or UserPromptExpansion hook blocked it, a command cannot run this way).
 */
export type SetupFailureKind = "usage" | "setup" | "blocked";

/**
 * A session that cannot start or a prompt that cannot be sent, with the exit code the command
 * should end with: 2 for bad usage (a flag, a schema, a budget that cannot be kept), 1 for
 * everything else. `kind` defaults from the code (2: usage, otherwise setup).
 */
export class SessionSetupError extends Error {
  readonly kind: SetupFailureKind;
  /** The session to continue does not exist (an editor answers "resource not found" for it). */
  readonly sessionNotFound: boolean;
  constructor(
    message: string,
    readonly exitCode: number,
    kind?: SetupFailureKind,
    options: { sessionNotFound?: boolean } = {},
  ) {
    super(message);
    this.kind = kind ?? (exitCode === 2 ? "usage" : "setup");
    this.sessionNotFound = options.sessionNotFound === true;
  }
}
