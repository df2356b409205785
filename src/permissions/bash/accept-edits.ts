// acceptEdits mode: the user accepted file edits inside the working directories without asking.
// For Bash that covers the plain file-editing commands (mkdir, touch, rm, rmdir, mv, cp, sed -i)
// and output redirections, when every path they name is known from the text and lies inside the
// working directories. Anything else still needs its own approval.
import * as path from "node:path";
import { resolveWordPath } from "../../shell/commands/index.js";
import type { Redirect } from "../../shell/parse/index.js";
import { unsafeSedCommand } from "../../shell/read-only/index.js";
import { isOutputRedirect } from "../../shell/validators/index.js";
import { type Field, parseArgs } from "../../shell/words/index.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { isProtectedPath, isReadableWithoutPrompt } from "./paths.js";

const FILE_EDIT_COMMANDS = new Set(["mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"]);

function pathInside(word: Field, cwd: string | undefined, context: ToolPermissionContext): boolean {
  if (!word.literal || word.glob) return false;
  const absolute = resolveWordPath(word, cwd);
  if (absolute === undefined || isProtectedPath(absolute)) return false;
  // The working directory itself is not an edit inside it (`rm -rf .` removes the project).
  if (context.workingDirectories.some((dir) => path.resolve(dir) === absolute)) return false;
  return isReadableWithoutPrompt(word, cwd, context);
}

/** True when the command only edits files, all named literally inside the working directories. */
export function isFileEditInside(words: Field[], cwd: string | undefined, context: ToolPermissionContext): boolean {
  const name = words[0]?.value ?? "";
  if (!words[0]?.literal || !FILE_EDIT_COMMANDS.has(name)) return false;
  if (name === "sed") return isInPlaceSedInside(words, cwd, context);
  const parsed = parseArgs(words, 1, {
    shortWithValue: name === "mkdir" ? "m" : name === "cp" || name === "mv" ? "tS" : "",
    longWithValue: ["mode", "target-directory", "suffix", "reference"],
  });
  if (parsed.dynamic || parsed.operands.length === 0) return false;
  const optionPaths = parsed.options
    .filter((o) => o.flag === "-t" || o.flag.startsWith("--target") || o.flag.startsWith("--ref"))
    .map((o) => o.value);
  if (optionPaths.some((v) => typeof v !== "object" || !pathInside(v, cwd, context))) return false;
  return parsed.operands.every((operand) => pathInside(operand, cwd, context));
}

function isInPlaceSedInside(words: Field[], cwd: string | undefined, context: ToolPermissionContext): boolean {
  const parsed = parseArgs(words, 1, { shortWithValue: "efl", longWithValue: ["expression", "file", "line-length"] });
  if (parsed.dynamic) return false;
  const inPlace = words.slice(1).some((w) => /^-[^-]*i|^--in-place/.test(w.value));
  if (!inPlace || parsed.options.some((o) => o.flag === "-f" || o.flag.startsWith("--file"))) return false;
  const scripts = parsed.options
    .filter((o) => o.flag === "-e" || o.flag.startsWith("--exp"))
    .map((o) => (typeof o.value === "object" ? o.value.value : (o.value ?? "")));
  const files = scripts.length > 0 ? parsed.operands : parsed.operands.slice(1);
  if (scripts.length === 0 && parsed.operands[0]) scripts.push(parsed.operands[0].value);
  if (scripts.length === 0 || files.length === 0) return false;
  // In-place editing is the accepted edit; w, e and r in the script reach other files or programs.
  if (scripts.some((script) => unsafeSedCommand(script) !== undefined)) return false;
  return files.every((file) => pathInside(file, cwd, context));
}

/** Output redirections that only write files inside the working directories. */
export function redirectsWriteInside(redirects: Redirect[], context: ToolPermissionContext): boolean {
  return redirects.every((redirect) => {
    const target = redirect.target;
    if (!target || !isOutputRedirect(redirect.operator, target.value)) return true;
    return pathInside(target, redirect.cwd, context) || target.value === "/dev/null";
  });
}
