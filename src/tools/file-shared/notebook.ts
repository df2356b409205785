// The parts of the Jupyter notebook format (nbformat 4) that Read and NotebookEdit work with.

export interface NotebookOutput {
  output_type: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  [key: string]: unknown;
}

export interface NotebookCell {
  cell_type: "code" | "markdown" | "raw";
  id?: string;
  source: string | string[];
  metadata: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [key: string]: unknown;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata: Record<string, unknown>;
  nbformat: number;
  nbformat_minor: number;
  [key: string]: unknown;
}

export function parseNotebook(text: string, filePath: string): Notebook {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${filePath} is not valid notebook JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || !Array.isArray((parsed as Notebook).cells)) {
    throw new Error(`${filePath} is not a Jupyter notebook: it has no "cells" array.`);
  }
  return parsed as Notebook;
}

export function sourceText(source: string | string[] | undefined): string {
  if (source === undefined) return "";
  return Array.isArray(source) ? source.join("") : source;
}

/** Cells are addressed by their id, or by "cell-N" (0-based index) in notebooks without ids. */
export function findCellIndex(notebook: Notebook, cellId: string): number {
  const byId = notebook.cells.findIndex((cell) => cell.id === cellId);
  if (byId >= 0) return byId;
  const indexMatch = /^cell-(\d+)$/.exec(cellId);
  if (indexMatch) {
    const index = Number(indexMatch[1]);
    if (index < notebook.cells.length) return index;
  }
  return -1;
}

export function cellLabel(cell: NotebookCell, index: number): string {
  return cell.id ?? `cell-${index}`;
}

/** nbformat 4.5 introduced cell ids; older notebooks must not get them. */
export function notebookUsesCellIds(notebook: Notebook): boolean {
  return notebook.nbformat > 4 || (notebook.nbformat === 4 && notebook.nbformat_minor >= 5);
}
