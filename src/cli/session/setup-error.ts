/**
 * A session that cannot start, with the exit code the command should end with: 2 for bad usage
 * (a flag, a schema, a budget that cannot be kept), 1 for everything else (no earlier session to
 * continue, a transcript that cannot be read).
 */
export class SessionSetupError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
