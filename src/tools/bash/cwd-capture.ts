// Whether a command needs its final directory recorded. Recording it costs an EXIT trap, which
// keeps bash alive after the command (one more fork per call, a file write, and a read and delete
// on our side). A command whose text cannot move the shell skips it: bash then replaces itself
// with the command's last program instead of forking it, as a bare `sh -c` would.
import { basename } from "node:path";
import type { ShellSnapshot } from "../../tool/shell-state.js";

/**
 * Characters that can make a word the text does not spell out: expansions ($, backticks), brace
 * expansion, globs that could match a file named `cd`. Any of them sends the command down the
 * recording path.
 */
const MAY_BUILD_WORDS = /[$`{}*?[\]]/;

/**
 * Builtins that move the shell or run code in it that the text does not show (sourced files,
 * eval'd strings, aliases, loaded builtins). Matched after quotes and backslashes are removed, so
 * `c'd'`, `"cd"` and `\cd` are caught too.
 */
const MOVES_OR_RUNS_HIDDEN_CODE = /(^|[^\w./-])(cd|pushd|popd|eval|source|alias|shopt|enable|\.)(?=$|[^\w./-])/;

/**
 * True unless the command's text provably cannot change the shell's directory. False positives
 * only cost the fork this saves. The shell's start-up code is out of sight, so only bash without
 * BASH_ENV (which it sources before a -c command) qualifies; zsh always reads ~/.zshenv.
 */
export function needsCwdCapture(command: string, snapshot: ShellSnapshot): boolean {
  if (basename(snapshot.shellPath) !== "bash" || snapshot.env.BASH_ENV || snapshot.env.ENV) return true;
  if (MAY_BUILD_WORDS.test(command)) return true;
  const unquoted = command.replace(/['"\\]/g, "");
  return MOVES_OR_RUNS_HIDDEN_CODE.test(unquoted);
}
