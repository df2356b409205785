// Edit: replaces exact text in a file. The validation steps answer with the reference's error
// codes, each telling the model what to do next; the replacement itself is computed again on the
// fresh content inside the shared critical section, so what is written is always based on what is
// on disk at that instant (or, when an editor lends its file system over ACP, on the editor's text:
// file-shared/commit-through-editor.ts).
import { isUtf8 } from "node:buffer";
import { mkdir, stat } from "node:fs/promises";
import * as path from "node:path";
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import type { ValidationResult } from "../../tool/types.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { withHistoryWarning } from "../file-shared/commit-change.js";
import { commitFileChange } from "../file-shared/commit-through-editor.js";
import { diffAroundRange } from "../file-shared/diff-snippet.js";
import { currentFileView } from "../file-shared/editor-view.js";
import { modifiedMessage, notReadMessage } from "../file-shared/freshness.js";
import { filePermission } from "../file-shared/path-permission.js";
import {
  fileInTheWay,
  fileInTheWayMessage,
  isBlockedDevicePath,
  resolveToolPath,
  toolPathOrUndefined,
  withAbsolutePath,
} from "../file-shared/paths.js";
import { findNewSecrets, SECRET_ERROR_CODE, secretRefusal } from "../file-shared/secret-scan.js";
import { missingFileHint } from "../file-shared/similar-files.js";
import { formatBytes, MAX_EDIT_FILE_SIZE, type TextFileSnapshot } from "../file-shared/text-file.js";
import { closestRegionHint } from "./closest-region.js";
import { type AppliedEdit, applyEdit, findEditMatch } from "./match.js";
import { EDIT_DESCRIPTION, EDIT_TOOL_NAME, editPrompt } from "./prompt.js";

const inputSchema = prebuiltInputSchema(EDIT_TOOL_NAME, () =>
  z.strictObject({
    file_path: z.string().describe("The absolute path of the file to modify"),
    old_string: z.string().describe("The text to replace"),
    new_string: z.string().describe("The text to replace it with (must be different from old_string)"),
    replace_all: z.boolean().default(false).describe("Replace every occurrence of old_string (default false)"),
  }),
);

export type EditInput = z.infer<typeof inputSchema>;

export interface EditOutput {
  filePath: string;
  created: boolean;
  replacements: number;
  diff: string;
  /** The change is on disk but could not be recorded for undo. */
  historyWarning?: string;
}

/** The error codes of Edit's validation, as the reference numbers them. */
export const EditErrorCode = {
  /** The new text holds a credential (file-shared/secret-scan.ts). */
  secret: SECRET_ERROR_CODE,
  noOp: 1,
  pathDenied: 2,
  fileExists: 3,
  fileMissing: 4,
  notebook: 5,
  notRead: 6,
  modifiedSinceRead: 7,
  notFound: 8,
  multipleMatches: 9,
  tooLarge: 10,
} as const;

/**
 * How much of the edited file around the change is scanned for credentials: a secret the edit
 * completes (a placeholder `sk_live_` given the rest of a key) overlaps the new text, and no
 * credential format is longer than this on either side of it.
 */
const SECRET_SCAN_MARGIN = 64 * 1024;

/** The edited file's text from a margin before the first replaced place to a margin after the last. */
function editedRegion(before: string, applied: AppliedEdit): string {
  const newEnd = applied.oldEnd + (applied.content.length - before.length);
  return applied.content.slice(Math.max(0, applied.start - SECRET_SCAN_MARGIN), newEnd + SECRET_SCAN_MARGIN);
}

function notFoundMessage(filePath: string, oldString: string, content: string): string {
  return `String to replace not found in ${filePath}. old_string must match the file exactly, including whitespace and indentation, without line-number prefixes. Read the file again to copy the current text.\nString: ${oldString}${closestRegionHint(content, oldString)}`;
}

function multipleMatchesMessage(count: number, oldString: string): string {
  return `Found ${count} matches of the string to replace, but replace_all is false. To replace all ${count}, set replace_all to true. To replace only one, give more surrounding context in old_string so it matches exactly one place.\nString: ${oldString}`;
}

/**
 * For a single replacement in a plain UTF-8 file (no BOM, no CR, so the text is the bytes
 * decoded one to one), the new bytes are the old ones with one slice swapped: re-encoding a
 * 50 MB file would cost more than the rest of the edit.
 */
function splicedBytes(current: TextFileSnapshot, applied: AppliedEdit, replaceAll: boolean): Buffer | undefined {
  // Only valid UTF-8 decodes one to one; otherwise positions in the text are not byte positions.
  if (replaceAll || current.encoding !== "utf8" || current.bytes.includes(13) || !isUtf8(current.bytes))
    return undefined;
  const byteStart = Buffer.byteLength(current.content.slice(0, applied.start));
  const byteEnd = byteStart + Buffer.byteLength(current.content.slice(applied.start, applied.oldEnd));
  const delta = applied.content.length - current.content.length;
  const inserted = applied.content.slice(applied.start, applied.oldEnd + delta);
  return Buffer.concat([
    current.bytes.subarray(0, byteStart),
    Buffer.from(inserted, "utf8"),
    current.bytes.subarray(byteEnd),
  ]);
}

function fail(errorCode: number, message: string): ValidationResult {
  return { result: false, message, errorCode };
}

export const EditTool = buildTool<EditInput, EditOutput>({
  name: EDIT_TOOL_NAME,
  searchHint: "modify change replace text in file",
  inputSchema,
  description: async (input) => (input?.file_path ? `Edit ${input.file_path}` : EDIT_DESCRIPTION),
  prompt: async () => editPrompt(),
  userFacingName: () => "Edit",
  getPath: (input, cwd) => toolPathOrUndefined(input.file_path, cwd),
  withAbsolutePaths: (input, cwd) => withAbsolutePath(input, "file_path", cwd),
  fileAccess: "write",
  toAutoClassifierInput: (input) => `${input.file_path}: ${input.new_string.slice(0, 200)}`,
  checkPermissions: async (input, context) =>
    filePermission<EditInput>("write", EDIT_TOOL_NAME, input.file_path, context),

  async validateInput(input, context) {
    const resolved = resolveToolPath(input.file_path, sessionWorkingDirectory(context));
    if (!resolved.ok) return fail(EditErrorCode.pathDenied, resolved.message);
    const filePath = resolved.path;
    if (input.old_string === input.new_string) {
      return fail(
        EditErrorCode.noOp,
        "No changes to make: old_string and new_string are exactly the same. Give the new text in new_string.",
      );
    }
    const permission = filePermission<EditInput>("write", EDIT_TOOL_NAME, input.file_path, context);
    if (permission.behavior === "deny" || isBlockedDevicePath(filePath)) {
      return fail(
        EditErrorCode.pathDenied,
        `File is in a location your permission settings deny: ${filePath}. Do not try to change it another way; tell the user if it must change.`,
      );
    }

    let stats: Awaited<ReturnType<typeof stat>> | undefined;
    try {
      stats = await stat(filePath);
    } catch {
      stats = undefined;
    }
    if (!stats) {
      // Creating a new file.
      if (input.old_string === "") {
        const blocker = await fileInTheWay(filePath);
        if (blocker) return fail(EditErrorCode.fileMissing, fileInTheWayMessage(filePath, blocker));
        return secretRefusal(filePath, await findNewSecrets(input.new_string)) ?? { result: true };
      }
      return fail(
        EditErrorCode.fileMissing,
        `File does not exist: ${filePath}. ${missingFileHint(filePath, sessionWorkingDirectory(context))}`,
      );
    }
    if (stats.isDirectory()) return fail(EditErrorCode.fileMissing, `${filePath} is a directory, not a file.`);
    if (stats.size > MAX_EDIT_FILE_SIZE) {
      return fail(
        EditErrorCode.tooLarge,
        `${filePath} is ${formatBytes(stats.size)}, over the ${formatBytes(MAX_EDIT_FILE_SIZE)} limit for edits.`,
      );
    }
    if (input.old_string === "" && stats.size > 0) {
      return fail(
        EditErrorCode.fileExists,
        `Cannot create ${filePath}: it already exists and has content. To change it, Read it and give the text to replace in old_string.`,
      );
    }
    if (path.extname(filePath).toLowerCase() === ".ipynb") {
      return fail(
        EditErrorCode.notebook,
        `${filePath} is a Jupyter notebook. Use the NotebookEdit tool to change its cells.`,
      );
    }

    // The disk's text, or the editor's when the editor driving the session reads files.
    const view = await currentFileView(context, filePath, stats.mtimeMs);
    if (view.problem?.kind === "not-read") return fail(EditErrorCode.notRead, notReadMessage(filePath));
    if (view.problem?.kind === "modified") return fail(EditErrorCode.modifiedSinceRead, modifiedMessage(filePath));
    if (input.old_string === "") {
      // An empty file being filled.
      return secretRefusal(filePath, await findNewSecrets(input.new_string, view.text)) ?? { result: true };
    }
    // The edit is applied here too (call() applies it again to what is on disk then, with the same
    // messages): the credential check must see the file as the edit leaves it, since a key can be
    // completed from text already there (`sk_live_` + the rest) without the new text holding it.
    const before = view.text();
    const match = findEditMatch(before, input.old_string, input.new_string);
    if (!match) return fail(EditErrorCode.notFound, notFoundMessage(filePath, input.old_string, before));
    if (match.count > 1 && !input.replace_all) {
      return fail(EditErrorCode.multipleMatches, multipleMatchesMessage(match.count, input.old_string));
    }
    const applied = applyEdit(before, match, input.replace_all);
    return (
      secretRefusal(filePath, await findNewSecrets(editedRegion(before, applied), () => before)) ?? { result: true }
    );
  },

  async call(input, context) {
    const resolved = resolveToolPath(input.file_path, sessionWorkingDirectory(context));
    if (!resolved.ok) throw new Error(resolved.message);
    const filePath = resolved.path;
    if (input.old_string === "") await mkdir(path.dirname(filePath), { recursive: true });

    let replacements = 0;
    let range = { start: 0, oldEnd: 0 };
    const change = await commitFileChange(EDIT_TOOL_NAME, filePath, context, (current) => {
      if (input.old_string === "") {
        if (current && current.content !== "") throw new Error(`Cannot create ${filePath}: it already has content.`);
        replacements = 1;
        return { content: input.new_string, encoding: current?.encoding ?? "utf8" };
      }
      if (!current) throw new Error(`File does not exist: ${filePath}.`);
      const match = findEditMatch(current.content, input.old_string, input.new_string);
      if (!match) throw new Error(notFoundMessage(filePath, input.old_string, current.content));
      if (match.count > 1 && !input.replace_all) throw new Error(multipleMatchesMessage(match.count, input.old_string));
      const applied = applyEdit(current.content, match, input.replace_all);
      replacements = input.replace_all ? match.count : 1;
      range = { start: applied.start, oldEnd: applied.oldEnd };
      return {
        content: applied.content,
        encoding: current.encoding,
        bytes: splicedBytes(current, applied, input.replace_all),
      };
    });
    const oldContent = change.before?.content ?? "";
    const diff = diffAroundRange(oldContent, change.content, range);
    return { data: { filePath, created: !change.before, replacements, diff, historyWarning: change.historyWarning } };
  },

  mapToolResult(output, toolUseId) {
    const head = output.created
      ? `File created successfully at: ${output.filePath}`
      : `The file ${output.filePath} has been updated${output.replacements > 1 ? ` (${output.replacements} replacements)` : ""}.`;
    const content = withHistoryWarning(`${head} Changes:\n${output.diff}`, output.historyWarning);
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
});
