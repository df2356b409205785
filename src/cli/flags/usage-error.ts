/** A command line (or a front end's session options) that cannot make a session: said, not run. */
export class UsageError extends Error {}
