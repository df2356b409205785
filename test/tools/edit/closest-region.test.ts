import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findClosestRegion } from "../../../src/tools/edit/closest-region.js";
import { EditErrorCode, EditTool } from "../../../src/tools/edit/tool.js";
import { ReadTool } from "../../../src/tools/read/tool.js";
import { callText, makeProject, type TestProject, validationCode, validationMessage } from "../helpers.js";

const SOURCE = [
  "import { readFile } from 'node:fs';",
  "",
  "export function total(items) {",
  "  let sum = 0;",
  "  for (const item of items) {",
  "    sum += item.price * item.quantity;",
  "  }",
  "  return sum;",
  "}",
  "",
  "export function label(item) {",
  '  return item.name + " (" + item.quantity + ")";',
  "}",
  "",
].join("\n");

describe("closest region to a missing old_string", () => {
  it("finds the lines the model meant despite wrong indentation and a changed word", () => {
    const region = findClosestRegion(SOURCE, "for (const item of items) {\n  sum += item.price * item.qty;\n}");
    expect(region).toMatchObject({ startLine: 5, endLine: 7 });
    expect(region?.similarity).toBeGreaterThan(0.7);
    expect(region?.quoted).toBe("5\t  for (const item of items) {\n6\t    sum += item.price * item.quantity;\n7\t  }");
  });

  it("quotes nothing when no part of the file is alike", () => {
    expect(findClosestRegion(SOURCE, "SELECT * FROM orders WHERE id = 42;")).toBeUndefined();
  });

  it("stays bounded on a large file: a one-line miss in 200,000 lines still finds its line", () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `const value${i} = compute(${i});`);
    lines[123_456] = "const answer = deepThought.compute(42);";
    const region = findClosestRegion(lines.join("\n"), "const answer = deepThought.compute(41);");
    expect(region?.startLine).toBe(123_457);
  });

  it("samples old_string's lines when file × old_string would pass the budget", () => {
    const file = Array.from({ length: 50_000 }, (_, i) => `row ${i} alpha beta gamma`);
    const target = Array.from({ length: 30 }, (_, k) => `block line ${k} with some distinctive words`);
    file.splice(40_000, 30, ...target);
    const old = target.map((line) => `  ${line.replace("words", "wordz")}`).join("\n");
    expect(findClosestRegion(file.join("\n"), old)).toMatchObject({ startLine: 40_001, endLine: 40_030 });
  });
});

describe("Edit's not-found error quotes the closest region", () => {
  let project: TestProject;
  beforeEach(async () => {
    project = await makeProject();
  });
  afterEach(async () => {
    await project.cleanup();
  });

  it("names the line numbers and the real text", async () => {
    const file = path.join(project.dir, "cart.js");
    await writeFile(file, SOURCE);
    await callText(ReadTool, { file_path: file }, project.context);
    const input = {
      file_path: file,
      old_string: 'return item.name + " (" + item.qty + ")";',
      new_string: "return item.name;",
    };
    expect(await validationCode(EditTool, input, project.context)).toBe(EditErrorCode.notFound);
    const message = await validationMessage(EditTool, input, project.context);
    expect(message).toContain("most similar text in the file is at line 12");
    expect(message).toContain('12\t  return item.name + " (" + item.quantity + ")";');
  });
});
