// Write: creates a file or replaces all of it. An existing file must have been read and be
// unchanged since; the write itself goes through the shared critical section (atomic, recorded
// in file history, readFileState updated), or through the editor's file system when an editor
// driving the session over ACP lends it (file-shared/commit-through-editor.ts).
import { mkdir, stat } from "node:fs/promises";
import * as path from "node:path";
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { withHistoryWarning } from "../file-shared/commit-change.js";
import { commitFileChange } from "../file-shared/commit-through-editor.js";
import { diffWhole } from "../file-shared/diff-snippet.js";
import { currentFileView } from "../file-shared/editor-view.js";
import { normalizeLineEndings } from "../file-shared/encoding.js";
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
import { findNewSecrets, secretRefusal } from "../file-shared/secret-scan.js";
import { formatBytes, MAX_EDIT_FILE_SIZE } from "../file-shared/text-file.js";
import { WRITE_DESCRIPTION, WRITE_TOOL_NAME, writePrompt } from "./prompt.js";

const inputSchema = prebuiltInputSchema(WRITE_TOOL_NAME, () =>
  z.strictObject({
    file_path: z.string().describe("The absolute path of the file to write (must be absolute, not relative)"),
    content: z.string().describe("The whole content to write to the file"),
  }),
);

export type WriteInput = z.infer<typeof inputSchema>;

export interface WriteOutput {
  type: "create" | "update";
  filePath: string;
  diff?: string;
  lines: number;
  /** The change is on disk but could not be recorded for undo. */
  historyWarning?: string;
}

export const WriteTool = buildTool<WriteInput, WriteOutput>({
  name: WRITE_TOOL_NAME,
  searchHint: "create new file write overwrite whole content",
  inputSchema,
  description: async (input) => (input?.file_path ? `Write ${input.file_path}` : WRITE_DESCRIPTION),
  prompt: async () => writePrompt(),
  userFacingName: () => "Write",
  getPath: (input, cwd) => toolPathOrUndefined(input.file_path, cwd),
  withAbsolutePaths: (input, cwd) => withAbsolutePath(input, "file_path", cwd),
  fileAccess: "write",
  toAutoClassifierInput: (input) => `${input.file_path}: ${input.content.slice(0, 200)}`,
  checkPermissions: async (input, context) =>
    filePermission<WriteInput>("write", WRITE_TOOL_NAME, input.file_path, context),

  async validateInput(input, context) {
    const resolved = resolveToolPath(input.file_path, sessionWorkingDirectory(context));
    if (!resolved.ok) return { result: false, message: resolved.message, errorCode: 1 };
    const filePath = resolved.path;
    if (isBlockedDevicePath(filePath)) {
      return { result: false, message: `Cannot write ${filePath}: it is a device, not a file.`, errorCode: 1 };
    }
    if (filePermission<WriteInput>("write", WRITE_TOOL_NAME, filePath, context).behavior === "deny") {
      return {
        result: false,
        message: `File is in a location your permission settings deny: ${filePath}. Do not try to write it another way; tell the user if it must change.`,
        errorCode: 1,
      };
    }
    if (Buffer.byteLength(input.content) > MAX_EDIT_FILE_SIZE) {
      return {
        result: false,
        message: `content is over the ${formatBytes(MAX_EDIT_FILE_SIZE)} limit for one write.`,
        errorCode: 4,
      };
    }
    let stats: Awaited<ReturnType<typeof stat>>;
    try {
      stats = await stat(filePath);
    } catch {
      // A new file needs no prior read.
      const blocker = await fileInTheWay(filePath);
      if (blocker) return { result: false, message: fileInTheWayMessage(filePath, blocker), errorCode: 1 };
      return secretRefusal(filePath, await findNewSecrets(input.content)) ?? { result: true };
    }
    if (stats.isDirectory())
      return { result: false, message: `${filePath} is a directory; give the path of a file.`, errorCode: 1 };
    // An early, friendlier answer; the authoritative check is repeated inside the critical section.
    const view = await currentFileView(context, filePath, stats.mtimeMs);
    if (view.problem?.kind === "not-read") return { result: false, message: notReadMessage(filePath), errorCode: 2 };
    if (view.problem?.kind === "modified") return { result: false, message: modifiedMessage(filePath), errorCode: 3 };
    const secrets = await findNewSecrets(input.content, view.text);
    return secretRefusal(filePath, secrets) ?? { result: true };
  },

  async call(input, context) {
    const resolved = resolveToolPath(input.file_path, sessionWorkingDirectory(context));
    if (!resolved.ok) throw new Error(resolved.message);
    const filePath = resolved.path;
    // Outside the critical section: creating folders may await.
    await mkdir(path.dirname(filePath), { recursive: true });
    // Line endings are always written as LF, as Edit writes them: carrying CRLF through tools is
    // how files end up with mixed endings across platforms.
    const content = normalizeLineEndings(input.content);
    const change = await commitFileChange(WRITE_TOOL_NAME, filePath, context, (current) => ({
      content,
      encoding: current?.encoding ?? "utf8",
    }));
    // A final newline ends the last line; it does not start another ("a\n" is one line, as wc -l counts).
    const lines = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
    const historyWarning = change.historyWarning;
    if (!change.before) return { data: { type: "create", filePath, lines, historyWarning } };
    return {
      data: { type: "update", filePath, lines, diff: diffWhole(change.before.content, content), historyWarning },
    };
  },

  mapToolResult(output, toolUseId) {
    const content =
      output.type === "create"
        ? `File created successfully at: ${output.filePath} (${linesText(output.lines)})`
        : `The file ${output.filePath} has been overwritten (${linesText(output.lines)}). Changes:\n${output.diff || "(no changes)"}`;
    return { type: "tool_result", tool_use_id: toolUseId, content: withHistoryWarning(content, output.historyWarning) };
  },
});

function linesText(count: number): string {
  return count === 1 ? "1 line" : `${count} lines`;
}
