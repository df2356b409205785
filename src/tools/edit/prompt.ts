export const EDIT_TOOL_NAME = "Edit";

export const EDIT_DESCRIPTION = "Replace exact text in a file (old_string → new_string).";

export function editPrompt(): string {
  return `Performs an exact string replacement in a file.

Usage:
- Use Edit for every change to an existing file; use Write only for new files or complete rewrites.
- Read the file in this conversation first: an edit of a file you have not read, or that changed since, is refused.
- old_string must match the file exactly, including indentation (tabs or spaces) and line breaks. From Read output, copy only the text after the line number and tab.
- The edit fails if old_string is not in the file, or if it occurs more than once and replace_all is not set. Add surrounding lines to make it unique, or set replace_all (e.g. to rename a variable).
- old_string and new_string must differ.
- An empty old_string creates a new file with new_string as its content; it is refused for a file that already has content.
- Jupyter notebooks (.ipynb) are changed with NotebookEdit, not Edit.
- Prefer Edit to sed, awk or echo in a shell: it checks what it changes and shows you the diff.
- Every change is recorded and can be undone with \`warden undo\`.`;
}
