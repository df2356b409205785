// What an Edit's (and a Write's) diff shows, in the permission dialog and the transcript: the file's whole lines
// around the edited text, numbered as in the file, not only the characters old_string names.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffLines } from "../../src/ui/components/DiffView.js";
import { editOf, writeOf } from "../../src/ui/transcript/tool-summary.js";

function fileWith(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "warden-edit-preview-")), "sum.js");
  writeFileSync(path, content);
  return path;
}

describe("editOf", () => {
  it("widens a fragment to its whole line, at the file's line number", () => {
    const file_path = fileWith("// sums\nexport function sum(a, b) { return a - b; }\n");
    expect(editOf({ file_path, old_string: "a - b", new_string: "a + b" }, "old")).toEqual({
      oldText: "export function sum(a, b) { return a - b; }",
      newText: "export function sum(a, b) { return a + b; }",
      firstLine: 2,
    });
  });

  it("after the edit, finds the new text and widens it the same way", () => {
    const file_path = fileWith("export function sum(a, b) { return a + b; }");
    expect(editOf({ file_path, old_string: "a - b", new_string: "a + b" }, "new")).toEqual({
      oldText: "export function sum(a, b) { return a - b; }",
      newText: "export function sum(a, b) { return a + b; }",
      firstLine: 1,
    });
  });

  it("keeps whole lines as they are, the next line left out", () => {
    const file_path = fileWith("one\ntwo\nthree\n");
    expect(editOf({ file_path, old_string: "two\n", new_string: "2\n" }, "old")).toEqual({
      oldText: "two\n",
      newText: "2\n",
      firstLine: 2,
    });
  });

  it("keeps the edit's own text when the file does not hold it", () => {
    const file_path = fileWith("nothing here\n");
    expect(editOf({ file_path, old_string: "a - b", new_string: "a + b" }, "old")).toEqual({
      oldText: "a - b",
      newText: "a + b",
      firstLine: 1,
    });
  });
});

describe("writeOf", () => {
  it("a new file: every line of the content is added, none removed", () => {
    const file_path = join(mkdtempSync(join(tmpdir(), "warden-write-preview-")), "NOTES.md");
    const preview = writeOf({ file_path, content: "notes\nmore" });
    expect(preview).toEqual({ oldText: "", newText: "notes\nmore\n", firstLine: 1 });
    const lines = diffLines(preview?.oldText ?? "", preview?.newText ?? "");
    expect(lines.map((line) => line.kind)).toEqual(["add", "add"]);
  });

  it("an existing file too big to read for a preview gets none, not one that shows it as new", () => {
    const file_path = fileWith("x".repeat(2_000_001));
    expect(writeOf({ file_path, content: "small\n" })).toBeUndefined();
  });

  it("an existing file: the file as it is against what the call writes", () => {
    const file_path = fileWith("one\ntwo\n");
    expect(writeOf({ file_path, content: "one\n2\n" })).toEqual({
      oldText: "one\ntwo\n",
      newText: "one\n2\n",
      firstLine: 1,
    });
  });

  it("is not a write without a path and a content", () => {
    expect(writeOf({ file_path: "/tmp/x" })).toBeUndefined();
  });
});
