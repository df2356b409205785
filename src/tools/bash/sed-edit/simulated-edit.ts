// `sed -i 's/…/…/' file` decided and applied as an edit. When the command is exactly one in-place
// sed of one simple substitution on one plain UTF-8 file (substitution.ts says which scripts), its
// result is computed here: the permission step judges it with the file-writing rules (deny rules
// and protected paths still apply, acceptEdits and Edit allow rules cover it) and shows the diff
// in the prompt; the call then writes exactly the approved text, provided the file is still what
// was shown. Anything this cannot prove (other options, several files, a script it cannot read, a
// file that is not plain UTF-8) is left to ordinary Bash approval and runs as a shell command.

import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import * as path from "node:path";
import type { ScriptAnalysis } from "../../../shell/analysis/index.js";
import type { EditPreview, PermissionResult } from "../../../tool/permission-types.js";
import type { ToolUseContext } from "../../../tool/types.js";
import { commitFileChange } from "../../file-shared/commit-through-editor.js";
import { diffAroundRange } from "../../file-shared/diff-snippet.js";
import { filePermission } from "../../file-shared/path-permission.js";
import { MAX_EDIT_FILE_SIZE, readTextFileSync } from "../../file-shared/text-file.js";
import { applySubstitution, parseSubstitution, type Substitution } from "./substitution.js";

/** The edit a sed command was proven to make, carried from the permission step to the call. */
export interface SimulatedSedEdit {
  filePath: string;
  /** sha256 of the file's text the edit was computed from (and shown for). */
  beforeHash: string;
  after: string;
}

/** The name the file rules judge the edit under: Edit rules and acceptEdits apply to it. */
const EDIT_RULE_TOOL = "Edit";

export interface SedCommand {
  filePath: string;
  substitution: Substitution;
}

/**
 * The in-place sed a command is, when it is nothing else: one simple command, no wrappers,
 * assignments or redirections, every word literal, options among -i/--in-place (no backup
 * suffix), -E/-r and one -e, one script and one file.
 */
export function inPlaceSedOf(analysis: ScriptAnalysis, cwd: string): SedCommand | undefined {
  if (analysis.incomplete || analysis.fallbackCommands.length || analysis.parts.length !== 1) return undefined;
  if (analysis.validation.findings.length) return undefined;
  const part = analysis.parts[0];
  if (part?.depth !== 0 || part.origin !== "top" || part.hidden !== undefined) return undefined;
  const { command, unwrapping } = part;
  if (command.kind !== "command" || command.assignments.length || command.redirects.length) return undefined;
  if (analysis.structure.redirects.length || analysis.structure.heredocs.length) return undefined;
  if (unwrapping.views.length !== 1 || unwrapping.nestedScripts.length || unwrapping.nestedCommands.length)
    return undefined;
  // The whole script is this command: no `&`, `;` or pipeline around it.
  if (analysis.script.trim() !== command.source.trim()) return undefined;
  const words = command.words;
  if (words[0]?.value !== "sed" || words.some((word) => !word.literal || word.glob)) return undefined;

  let inPlace = false;
  let extended = false;
  let script: string | undefined;
  const operands: string[] = [];
  let optionsEnded = false;
  for (let i = 1; i < words.length; i++) {
    const word = (words[i] as { value: string }).value;
    if (optionsEnded || !word.startsWith("-") || word === "-") operands.push(word);
    else if (word === "--") optionsEnded = true;
    else if (word === "-i" || word === "--in-place") inPlace = true;
    else if (word === "-E" || word === "-r" || word === "--regexp-extended") extended = true;
    else if ((word === "-e" || word === "--expression") && script === undefined && i + 1 < words.length) {
      script = (words[++i] as { value: string }).value;
    } else if (word.startsWith("--expression=") && script === undefined) script = word.slice("--expression=".length);
    else return undefined;
  }
  if (script === undefined) script = operands.shift();
  if (!inPlace || script === undefined || operands.length !== 1) return undefined;
  const substitution = parseSubstitution(script, extended);
  if (!substitution) return undefined;
  return { filePath: path.resolve(cwd, operands[0] as string), substitution };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The file's text and the edit, or undefined when the file is not one sed's meaning is proven on. */
function simulate(sed: SedCommand): { before: string; edit: SimulatedSedEdit } | undefined {
  try {
    const stats = lstatSync(sed.filePath);
    // sed -i replaces a symbolic link by a file; writing through it would not.
    if (!stats.isFile() || stats.size > MAX_EDIT_FILE_SIZE) return undefined;
    const snapshot = readTextFileSync(sed.filePath);
    if (snapshot.encoding !== "utf8" || snapshot.bytes.includes(13) || !isUtf8(snapshot.bytes)) return undefined;
    const before = snapshot.bytes.toString("utf8");
    if (before.charCodeAt(0) === 0xfeff) return undefined;
    // `.` and bracket expressions mean bytes or characters depending on the shell's locale.
    if (sed.substitution.localeSensitive && /[^\x00-\x7f]/.test(before)) return undefined;
    const after = applySubstitution(before, sed.substitution);
    return { before, edit: { filePath: sed.filePath, beforeHash: sha256(before), after } };
  } catch {
    return undefined;
  }
}

/** The changed span: lines from the first to the last that differ, old and new. */
function previewOf(filePath: string, before: string, after: string): EditPreview {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const lineStart = before.lastIndexOf("\n", start - 1) + 1;
  const lineEndOf = (text: string, from: number) => {
    const at = text.indexOf("\n", from);
    return at < 0 ? text.length : at;
  };
  return {
    filePath,
    oldText: before.slice(lineStart, lineEndOf(before, Math.max(lineStart, endBefore - 1))),
    newText: after.slice(lineStart, lineEndOf(after, Math.max(lineStart, endAfter - 1))),
    firstLine: before.slice(0, lineStart).split("\n").length,
  };
}

/**
 * The permission of an in-place sed judged as an edit, or undefined when the command is not one
 * this can simulate. Deny wins from either side (the Bash rules' answer or the file's); an ask
 * from the file rules (a protected path, an ask rule) stays an ask; an allow from either side
 * allows, since the command provably does nothing but this edit.
 */
export function sedEditPermission<Input extends Record<string, unknown>>(
  input: Input,
  sed: SedCommand,
  bashResult: PermissionResult,
  context: ToolUseContext,
): PermissionResult<Input & { _simulatedSedEdit: SimulatedSedEdit }> | undefined {
  const simulated = simulate(sed);
  if (!simulated) return undefined;
  if (bashResult.behavior === "deny") return bashResult;
  const file = filePermission<Input>("write", EDIT_RULE_TOOL, sed.filePath, context);
  if (file.behavior === "deny") return file;
  const updatedInput = { ...input, _simulatedSedEdit: simulated.edit };
  const editPreview = previewOf(sed.filePath, simulated.before, simulated.edit.after);
  if (file.behavior === "ask") return { ...file, updatedInput, editPreview };
  if (file.behavior === "allow" || bashResult.behavior === "allow") {
    return {
      behavior: "allow",
      updatedInput,
      decisionReason: file.behavior === "allow" ? file.decisionReason : bashResult.decisionReason,
    };
  }
  return {
    behavior: "ask",
    message: `sed wants to edit ${sed.filePath}.`,
    updatedInput,
    editPreview,
    ...(file.decisionReason && { decisionReason: file.decisionReason }),
    ...(file.suggestions && { suggestions: file.suggestions }),
  };
}

/**
 * Writes the approved text, if the file still holds what the edit was computed from; returns the
 * diff the model reads. Not read by the model first is fine: the person approved this exact change.
 */
export async function applySimulatedSedEdit(
  edit: SimulatedSedEdit,
  context: ToolUseContext,
): Promise<{ diff: string; historyWarning?: string }> {
  let range = { start: 0, oldEnd: 0 };
  const change = await commitFileChange(
    "Bash",
    edit.filePath,
    context,
    (current) => {
      const text = current?.bytes.toString("utf8");
      if (text === undefined || sha256(text) !== edit.beforeHash) {
        throw new Error(
          `${edit.filePath} changed after the sed edit was computed; nothing was written. Run the command again.`,
        );
      }
      const preview = previewOf(edit.filePath, text, edit.after);
      const start =
        text
          .split("\n")
          .slice(0, preview.firstLine - 1)
          .join("\n").length + (preview.firstLine > 1 ? 1 : 0);
      range = { start, oldEnd: start + preview.oldText.length };
      return { content: edit.after, encoding: "utf8", bytes: Buffer.from(edit.after, "utf8") };
    },
    { requireRead: false },
  );
  return {
    diff: diffAroundRange(change.before?.content ?? "", change.content, range),
    historyWarning: change.historyWarning,
  };
}
