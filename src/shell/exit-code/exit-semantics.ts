// What a command's exit code means. Some programs use exit 1 to answer a question rather than to
// report a failure (grep found nothing, diff found differences): told "exit code 1, error" the
// model would chase a problem that does not exist, so those codes are reported as their meaning.
import { parse } from "shell-quote";

export interface CommandOutcome {
  /** True when the exit code means the command failed. */
  isError: boolean;
  /** What a non-zero code that is not a failure means ("No matches found"). */
  meaning?: string;
}

type Interpreter = (exitCode: number) => CommandOutcome;

const failsOnNonZero: Interpreter = (exitCode) => ({ isError: exitCode !== 0 });

/** Exit 1 answers a question; 2 and above are real errors. */
function answersWithOne(meaning: string): Interpreter {
  return (exitCode) => (exitCode === 1 ? { isError: false, meaning } : { isError: exitCode !== 0 });
}

const noMatches = answersWithOne("No matches found");

const INTERPRETERS: Record<string, Interpreter> = {
  grep: noMatches,
  egrep: noMatches,
  fgrep: noMatches,
  rg: noMatches,
  ag: noMatches,
  ack: noMatches,
  diff: answersWithOne("Files differ"),
  cmp: answersWithOne("Files differ"),
  test: answersWithOne("Condition is false"),
  "[": answersWithOne("Condition is false"),
  "[[": answersWithOne("Condition is false"),
  find: answersWithOne("Some directories were inaccessible (partial results)"),
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const COMMAND_SEPARATORS = new Set(["|", "||", "&&", ";", "&", "|&", ";;"]);

/**
 * The program whose status the shell reports: the first word of the last simple command (a
 * pipeline's status is its last part's; in `a && b` the last to run is usually b). Leading
 * variable assignments are skipped and `/usr/bin/grep` counts as grep. A heuristic only: it picks
 * a message, never a permission.
 */
export function lastCommandName(command: string): string | undefined {
  let tokens: ReturnType<typeof parse>;
  try {
    tokens = parse(command, (name) => `$${name}`);
  } catch {
    return undefined;
  }
  let current: string[] = [];
  let last: string[] = [];
  for (const token of tokens) {
    if (typeof token === "string") {
      current.push(token);
    } else if ("op" in token && COMMAND_SEPARATORS.has(token.op)) {
      if (current.length) last = current;
      current = [];
    } else if ("comment" in token) {
      break;
    }
  }
  if (current.length) last = current;
  const name = last.find((word) => !ASSIGNMENT.test(word));
  return name?.split("/").pop();
}

export function interpretCommandResult(command: string, exitCode: number): CommandOutcome {
  const name = lastCommandName(command);
  const interpreter = (name && INTERPRETERS[name]) || failsOnNonZero;
  return interpreter(exitCode);
}
