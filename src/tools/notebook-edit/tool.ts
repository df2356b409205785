// NotebookEdit: one cell at a time, by id. The notebook JSON is changed as data (never as text),
// written through the shared critical section, and must have been read first like any file.
import { randomBytes } from "node:crypto";
import { stat } from "node:fs/promises";
import * as path from "node:path";
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { commitFileChangeSync, withHistoryWarning } from "../file-shared/commit-change.js";
import { checkFreshness, currentText, modifiedMessage, notReadMessage } from "../file-shared/freshness.js";
import {
  cellLabel,
  findCellIndex,
  type Notebook,
  type NotebookCell,
  notebookUsesCellIds,
  parseNotebook,
} from "../file-shared/notebook.js";
import { deniedByRule, filePermission } from "../file-shared/path-permission.js";
import { resolveToolPath, toolPathOrUndefined, withAbsolutePath } from "../file-shared/paths.js";
import { findNewSecrets, secretRefusal } from "../file-shared/secret-scan.js";
import { missingFileHint } from "../file-shared/similar-files.js";
import { NOTEBOOK_EDIT_DESCRIPTION, NOTEBOOK_EDIT_TOOL_NAME, notebookEditPrompt } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    notebook_path: z.string().describe("The absolute path of the .ipynb file to edit"),
    cell_id: z
      .string()
      .optional()
      .describe("The id of the cell to edit; for insert, the new cell goes after it (omit to insert at the start)"),
    new_source: z.string().describe("The new source of the cell"),
    cell_type: z.enum(["code", "markdown"]).optional().describe("The cell's type; required for insert"),
    edit_mode: z.enum(["replace", "insert", "delete"]).optional().describe("replace (default), insert or delete"),
  }),
);

export type NotebookEditInput = z.infer<typeof inputSchema>;

export interface NotebookEditOutput {
  notebookPath: string;
  editMode: "replace" | "insert" | "delete";
  cellId: string;
  cellType?: string;
  /** The change is on disk but could not be recorded for undo. */
  historyWarning?: string;
}

export const NotebookEditErrorCode = {
  badPath: 1,
  notNotebook: 2,
  missing: 3,
  invalidJson: 4,
  cellNotFound: 5,
  cellTypeRequired: 6,
  cellIdRequired: 7,
  notRead: 9,
  modifiedSinceRead: 10,
} as const;

/** A cell's source as text (nbformat allows a list of lines). */
function sourceText(source: unknown): string {
  return Array.isArray(source) ? source.join("") : typeof source === "string" ? source : "";
}

function newCellId(): string {
  return randomBytes(4).toString("hex");
}

/** Applies the edit to the parsed notebook; returns the id of the cell it touched. */
export function applyNotebookEdit(notebook: Notebook, input: NotebookEditInput): { cellId: string; cellType?: string } {
  const mode = input.edit_mode ?? "replace";
  const index = input.cell_id === undefined ? -1 : findCellIndex(notebook, input.cell_id);
  if (input.cell_id !== undefined && index < 0) throw new Error(cellNotFoundMessage(notebook, input.cell_id));
  if (mode === "insert") {
    if (!input.cell_type) throw new Error('cell_type is required to insert a cell: give "code" or "markdown".');
    const cell: NotebookCell = { cell_type: input.cell_type, source: input.new_source, metadata: {} };
    if (notebookUsesCellIds(notebook)) cell.id = newCellId();
    if (input.cell_type === "code") {
      cell.execution_count = null;
      cell.outputs = [];
    }
    const at = index + 1; // after cell_id, or at the start when it is omitted
    notebook.cells.splice(at, 0, cell);
    return { cellId: cellLabel(cell, at), cellType: input.cell_type };
  }
  if (index < 0) throw new Error(`cell_id is required to ${mode} a cell.`);
  const cell = notebook.cells[index]!;
  const label = cellLabel(cell, index);
  if (mode === "delete") {
    notebook.cells.splice(index, 1);
    return { cellId: label, cellType: cell.cell_type };
  }
  cell.source = input.new_source;
  if (input.cell_type && input.cell_type !== cell.cell_type) {
    cell.cell_type = input.cell_type;
  }
  // The old outputs belong to the old source: keeping them would show results the new code never produced.
  if (cell.cell_type === "code") {
    cell.execution_count = null;
    cell.outputs = [];
  } else {
    delete cell.outputs;
    delete cell.execution_count;
  }
  return { cellId: label, cellType: cell.cell_type };
}

function cellNotFoundMessage(notebook: Notebook, cellId: string): string {
  const ids = notebook.cells.slice(0, 20).map((c, i) => cellLabel(c, i));
  return `Cell "${cellId}" not found in the notebook. Its cells are: ${ids.join(", ")}${notebook.cells.length > 20 ? ", ..." : ""}. Read the notebook to see them.`;
}

export const NotebookEditTool = buildTool<NotebookEditInput, NotebookEditOutput>({
  name: NOTEBOOK_EDIT_TOOL_NAME,
  searchHint: "jupyter notebook ipynb cell edit insert delete",
  shouldDefer: true,
  inputSchema,
  description: async (input) =>
    input?.notebook_path
      ? `${input.edit_mode ?? "replace"} a cell of ${input.notebook_path}`
      : NOTEBOOK_EDIT_DESCRIPTION,
  prompt: async () => notebookEditPrompt(),
  userFacingName: () => "Edit Notebook",
  getPath: (input, cwd) => toolPathOrUndefined(input.notebook_path, cwd),
  withAbsolutePaths: (input, cwd) => withAbsolutePath(input, "notebook_path", cwd),
  fileAccess: "write",
  toAutoClassifierInput: (input) =>
    `${input.notebook_path} ${input.edit_mode ?? "replace"}: ${input.new_source.slice(0, 200)}`,
  checkPermissions: async (input, context) =>
    filePermission<NotebookEditInput>("write", NOTEBOOK_EDIT_TOOL_NAME, input.notebook_path, context, "notebook_path"),

  async validateInput(input, context) {
    const resolved = resolveToolPath(input.notebook_path, sessionWorkingDirectory(context), "notebook_path");
    if (!resolved.ok) return { result: false, message: resolved.message, errorCode: NotebookEditErrorCode.badPath };
    const filePath = resolved.path;
    // Denied by a rule: the permission check refuses it, before the disk is looked at.
    if (deniedByRule("write", NOTEBOOK_EDIT_TOOL_NAME, filePath, context, "notebook_path")) return { result: true };
    if (path.extname(filePath).toLowerCase() !== ".ipynb") {
      return {
        result: false,
        message: `${filePath} is not a Jupyter notebook (.ipynb). Use Edit for other files.`,
        errorCode: NotebookEditErrorCode.notNotebook,
      };
    }
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(filePath)).mtimeMs;
    } catch {
      return {
        result: false,
        message: `Notebook does not exist: ${filePath}. ${missingFileHint(filePath, sessionWorkingDirectory(context))}`,
        errorCode: NotebookEditErrorCode.missing,
      };
    }
    const mode = input.edit_mode ?? "replace";
    if (mode === "insert" && !input.cell_type) {
      return {
        result: false,
        message: 'cell_type is required to insert a cell: give "code" or "markdown".',
        errorCode: NotebookEditErrorCode.cellTypeRequired,
      };
    }
    if (mode !== "insert" && input.cell_id === undefined) {
      return {
        result: false,
        message: `cell_id is required to ${mode} a cell.`,
        errorCode: NotebookEditErrorCode.cellIdRequired,
      };
    }
    const problem = checkFreshness(context.readFileState.get(filePath), mtimeMs, () => currentText(filePath));
    if (problem?.kind === "not-read")
      return { result: false, message: notReadMessage(filePath), errorCode: NotebookEditErrorCode.notRead };
    if (problem?.kind === "modified") {
      return { result: false, message: modifiedMessage(filePath), errorCode: NotebookEditErrorCode.modifiedSinceRead };
    }
    let notebook: Notebook;
    try {
      notebook = parseNotebook(currentText(filePath), filePath);
    } catch (error) {
      return { result: false, message: (error as Error).message, errorCode: NotebookEditErrorCode.invalidJson };
    }
    if (input.cell_id !== undefined && findCellIndex(notebook, input.cell_id) < 0) {
      return {
        result: false,
        message: cellNotFoundMessage(notebook, input.cell_id),
        errorCode: NotebookEditErrorCode.cellNotFound,
      };
    }
    // A replaced or inserted cell's source is the whole of that cell after the edit: it may not
    // bring a credential the notebook did not already hold (in any cell's source or output).
    if (mode === "delete") return { result: true };
    const held = () => [currentText(filePath), ...notebook.cells.map((cell) => sourceText(cell.source))].join("\n");
    return secretRefusal(filePath, await findNewSecrets(input.new_source, held)) ?? { result: true };
  },

  async call(input, context) {
    const resolved = resolveToolPath(input.notebook_path, sessionWorkingDirectory(context), "notebook_path");
    if (!resolved.ok) throw new Error(resolved.message);
    const filePath = resolved.path;
    let touched: { cellId: string; cellType?: string } = { cellId: "" };
    const change = commitFileChangeSync(NOTEBOOK_EDIT_TOOL_NAME, filePath, context, (current) => {
      if (!current) throw new Error(`Notebook does not exist: ${filePath}.`);
      const notebook = parseNotebook(current.content, filePath);
      touched = applyNotebookEdit(notebook, input);
      // Jupyter writes one-space indented JSON with a final newline; matching it keeps diffs small.
      return { content: `${JSON.stringify(notebook, null, 1)}\n`, encoding: current.encoding };
    });
    return {
      data: {
        notebookPath: filePath,
        editMode: input.edit_mode ?? "replace",
        ...touched,
        historyWarning: change.historyWarning,
      },
    };
  },

  mapToolResult(output, toolUseId) {
    const verb = output.editMode === "insert" ? "Inserted" : output.editMode === "delete" ? "Deleted" : "Updated";
    const type = output.cellType ? ` ${output.cellType}` : "";
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: withHistoryWarning(
        `${verb}${type} cell ${output.cellId} in ${output.notebookPath}.`,
        output.historyWarning,
      ),
    };
  },
});
