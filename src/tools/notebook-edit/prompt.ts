export const NOTEBOOK_EDIT_TOOL_NAME = "NotebookEdit";

export const NOTEBOOK_EDIT_DESCRIPTION = "Replace, insert or delete one cell of a Jupyter notebook (.ipynb).";

export function notebookEditPrompt(): string {
  return `Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb file).

Usage:
- notebook_path must be an absolute path. Read the notebook with the Read tool first: the edit is refused otherwise, or when the notebook changed on disk since.
- cell_id names the cell: its id as shown by Read, or "cell-N" (0-based position) in notebooks without ids.
- edit_mode "replace" (default) sets the cell's source to new_source and clears its outputs and execution count.
- edit_mode "insert" adds a new cell after cell_id (at the start when cell_id is omitted); cell_type ("code" or "markdown") is required.
- edit_mode "delete" removes the cell; new_source is ignored.
- Use NotebookEdit for notebooks, not Edit or Write: it keeps the notebook's JSON valid.`;
}
