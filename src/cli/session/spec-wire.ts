// A SessionSpec across a process boundary: the one place a session is written for another
// process and read back. A fleet worker starts a job's session as `warden --session-spec -` with
// the spec on stdin, the same binary a person runs, given the whole session as one value rather
// than turned back into flags and re-parsed flag by flag; a lead gives a process teammate its
// spec in the stream-json `initialize` request (../teammates/). Never on the command line: a spec
// may hold settings with secrets (the library's `env`, MCP servers' tokens), and any user of the
// machine can read a process's arguments. The writer checks the spec with the schema before it
// leaves (a front end's bug fails there, naming the field), and the reader parses it back with the
// same schema, so a key this build does not know, a value of the wrong kind or a combination that
// cannot work is refused with a message naming it, never guessed at or dropped.
import { readFile } from "node:fs/promises";
import { UsageError } from "../flags/usage-error.js";
import { parseSessionSpec, type SessionSpec, type SessionSpecInput } from "./spec.js";

/** The option that carries a whole session: it is the only one given with it. */
export const SESSION_SPEC_FLAG = "--session-spec";

/** The spec as the text a child process is given (checked first: a bad spec never leaves). */
export function writeSessionSpec(spec: SessionSpecInput): string {
  return JSON.stringify(parseSessionSpec(spec));
}

/** `warden --session-spec -` runs the session whose spec is written on its stdin. */
export const SESSION_SPEC_FROM_STDIN: readonly string[] = [SESSION_SPEC_FLAG, "-"];

/**
 * The spec `text` describes, defaults filled in; a UsageError saying what is wrong otherwise,
 * after `where` the spec came from.
 */
export function readSessionSpec(text: string, where = SESSION_SPEC_FLAG): SessionSpec {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${where}: must be a JSON object describing the session`);
  }
  try {
    return parseSessionSpec(value);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${where}: ${error.message}`);
    throw error;
  }
}

/**
 * The spec `argv` names (`--session-spec FILE`, or `-` for stdin, whose text `readStdin` gives),
 * or undefined when it names none. With the spec, nothing else may be given: two descriptions of
 * one session could disagree, so neither is picked.
 */
export async function sessionSpecOfArgs(
  argv: readonly string[],
  readStdin: () => Promise<string>,
): Promise<SessionSpec | undefined> {
  const at = argv.findIndex((arg) => arg === SESSION_SPEC_FLAG || arg.startsWith(`${SESSION_SPEC_FLAG}=`));
  if (at < 0) return undefined;
  const arg = argv[at] as string;
  const inline = arg.startsWith(`${SESSION_SPEC_FLAG}=`) ? arg.slice(SESSION_SPEC_FLAG.length + 1) : undefined;
  const source = inline ?? argv[at + 1];
  if (source === undefined || source === "") {
    throw new UsageError(`${SESSION_SPEC_FLAG} needs a value: a file holding the session as JSON, or - for stdin`);
  }
  if (argv.length !== (inline !== undefined ? 1 : 2)) {
    throw new UsageError(`${SESSION_SPEC_FLAG} describes the whole session: give no other option or prompt with it`);
  }
  let text: string;
  try {
    text = source === "-" ? await readStdin() : await readFile(source, "utf8");
  } catch (error) {
    throw new UsageError(
      `${SESSION_SPEC_FLAG}: cannot read ${source === "-" ? "stdin" : source}: ${(error as Error).message}`,
    );
  }
  return readSessionSpec(text);
}
