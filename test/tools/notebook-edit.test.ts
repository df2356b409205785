import { readFile, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Notebook } from "../../src/tools/file-shared/notebook.js";
import { NotebookEditErrorCode, NotebookEditTool } from "../../src/tools/notebook-edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { callText, makeProject, type TestProject, validationCode } from "./helpers.js";

let project: TestProject;
let file: string;

function notebook(minor: number, withIds: boolean): Notebook {
  const id = (v: string) => (withIds ? { id: v } : {});
  return {
    nbformat: 4,
    nbformat_minor: minor,
    metadata: {},
    cells: [
      { cell_type: "markdown", ...id("intro"), metadata: {}, source: "# Notes" },
      {
        cell_type: "code",
        ...id("calc"),
        metadata: {},
        execution_count: 3,
        source: "x = 1\nx",
        outputs: [{ output_type: "execute_result", data: { "text/plain": "1" }, metadata: {}, execution_count: 3 }],
      },
    ],
  };
}

async function load(): Promise<Notebook> {
  return JSON.parse(await readFile(file, "utf8")) as Notebook;
}

beforeEach(async () => {
  project = await makeProject();
  file = path.join(project.dir, "analysis.ipynb");
});
afterEach(async () => {
  await project.cleanup();
});

describe("NotebookEdit", () => {
  it("replace sets the source and clears outputs and execution_count", async () => {
    await writeFile(file, JSON.stringify(notebook(5, true)));
    await callText(ReadTool, { file_path: file }, project.context);
    const text = await callText(
      NotebookEditTool,
      { notebook_path: file, cell_id: "calc", new_source: "y = 2\ny" },
      project.context,
    );
    expect(text).toBe(`Updated code cell calc in ${file}.`);
    const nb = await load();
    expect(nb.cells[1]).toMatchObject({ id: "calc", source: "y = 2\ny", outputs: [], execution_count: null });
    expect(nb.cells[0]!.source).toBe("# Notes");
  });

  it("insert after a cell gives the new cell an id on nbformat 4.5", async () => {
    await writeFile(file, JSON.stringify(notebook(5, true)));
    await callText(ReadTool, { file_path: file }, project.context);
    await callText(
      NotebookEditTool,
      { notebook_path: file, cell_id: "intro", new_source: "print('hi')", cell_type: "code", edit_mode: "insert" },
      project.context,
    );
    const nb = await load();
    expect(nb.cells.map((c) => c.source)).toEqual(["# Notes", "print('hi')", "x = 1\nx"]);
    expect(nb.cells[1]!.id).toMatch(/^[0-9a-f]{8}$/);
  });

  it("insert without cell_id goes first; on nbformat 4.4 no id is added; cells are addressed as cell-N", async () => {
    await writeFile(file, JSON.stringify(notebook(4, false)));
    await callText(ReadTool, { file_path: file }, project.context);
    await callText(
      NotebookEditTool,
      { notebook_path: file, new_source: "Intro", cell_type: "markdown", edit_mode: "insert" },
      project.context,
    );
    let nb = await load();
    expect(nb.cells[0]).toEqual({ cell_type: "markdown", source: "Intro", metadata: {} });
    await callText(
      NotebookEditTool,
      { notebook_path: file, cell_id: "cell-2", new_source: "", edit_mode: "delete" },
      project.context,
    );
    nb = await load();
    expect(nb.cells.map((c) => c.source)).toEqual(["Intro", "# Notes"]);
  });

  it("delete removes the cell", async () => {
    await writeFile(file, JSON.stringify(notebook(5, true)));
    await callText(ReadTool, { file_path: file }, project.context);
    await callText(
      NotebookEditTool,
      { notebook_path: file, cell_id: "intro", new_source: "", edit_mode: "delete" },
      project.context,
    );
    expect((await load()).cells.map((c) => c.id)).toEqual(["calc"]);
  });

  it("must be read first (code 9) and unchanged since (code 10)", async () => {
    await writeFile(file, JSON.stringify(notebook(5, true)));
    const input = { notebook_path: file, cell_id: "calc", new_source: "z" };
    expect(await validationCode(NotebookEditTool, input, project.context)).toBe(NotebookEditErrorCode.notRead);
    await callText(ReadTool, { file_path: file }, project.context);
    await writeFile(file, JSON.stringify({ ...notebook(5, true), metadata: { changed: true } }));
    const later = new Date(Date.now() + 10_000);
    await utimes(file, later, later);
    expect(await validationCode(NotebookEditTool, input, project.context)).toBe(
      NotebookEditErrorCode.modifiedSinceRead,
    );
  });

  it("refuses unknown cells, missing cell_type on insert, and non-notebooks", async () => {
    await writeFile(file, JSON.stringify(notebook(5, true)));
    await callText(ReadTool, { file_path: file }, project.context);
    expect(
      await validationCode(NotebookEditTool, { notebook_path: file, cell_id: "nope", new_source: "" }, project.context),
    ).toBe(NotebookEditErrorCode.cellNotFound);
    expect(
      await validationCode(
        NotebookEditTool,
        { notebook_path: file, new_source: "", edit_mode: "insert" },
        project.context,
      ),
    ).toBe(NotebookEditErrorCode.cellTypeRequired);
    const txt = path.join(project.dir, "a.txt");
    await writeFile(txt, "");
    expect(
      await validationCode(NotebookEditTool, { notebook_path: txt, cell_id: "x", new_source: "" }, project.context),
    ).toBe(NotebookEditErrorCode.notNotebook);
  });

  it("is a writing, serial, deferred tool", () => {
    const input = { notebook_path: "/a.ipynb", new_source: "" };
    expect(NotebookEditTool.isReadOnly(input)).toBe(false);
    expect(NotebookEditTool.isConcurrencySafe(input)).toBe(false);
    expect(NotebookEditTool.shouldDefer).toBe(true);
  });
});
