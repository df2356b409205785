import { DEFAULT_LINE_LIMIT, MAX_LINE_CHARS, MAX_PDF_PAGES_PER_READ } from "./limits.js";

export const READ_TOOL_NAME = "Read";

export const READ_DESCRIPTION = "Read a file from the local filesystem (text, image, PDF or Jupyter notebook).";

export function readPrompt(): string {
  return `Reads a file from the local filesystem. A path that does not exist gets an error suggesting similar names.

Usage:
- file_path should be absolute.
- By default up to ${DEFAULT_LINE_LIMIT} lines are read from the start of the file. For long files pass offset (1-based first line) and limit (line count) to read only the part you need.
- Lines longer than ${MAX_LINE_CHARS} characters are cut.
- Results are numbered like cat -n: the line number, a tab, then the line. When you copy text for Edit's old_string, copy only what follows the tab, never the number.
- Images (PNG, JPG, GIF, WEBP) are shown to you as images.
- PDFs are read as text. For a PDF of more than 10 pages give pages (e.g. "1-5"); at most ${MAX_PDF_PAGES_PER_READ} pages per call.
- Jupyter notebooks (.ipynb) are shown as cells with their outputs.
- Re-reading an unchanged file with the same offset and limit returns a short note instead of the content: use what you have.
- Read a file before you Edit or Overwrite it: the writing tools refuse files you have not read.
- Prefer this tool to cat, head, tail or sed in a shell. Read several files you need in one turn, in parallel.
- Directories cannot be read; list them with Glob or ls.`;
}
