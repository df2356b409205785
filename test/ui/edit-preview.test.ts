// What an Edit's (and a Write's) diff shows, in the permission dialog and the transcript: the file's whole lines
// around the edited text, numbered as in the file, not only the characters old_string names, with
// two lines of the file before and after it (where the edit lands).
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
  it("widens a fragment to its whole line, with the file's lines around it, at the file's line numbers", () => {
    const file_path = fileWith("// sums\nexport function sum(a, b) { return a - b; }\n");
    expect(editOf({ file_path, old_string: "a - b", new_string: "a + b" }, "old")).toEqual({
      oldText: "// sums\nexport function sum(a, b) { return a - b; }\n",
      newText: "// sums\nexport function sum(a, b) { return a + b; }\n",
      firstLine: 1,
    });
  });

  it("shows two lines of the file before and after the edit, so the person sees where it lands", () => {
    const file_path = fileWith("import x\n\ndef add(a, b):\n    return a + b\n\nprint(add(1, 2))\nprint(3)\n");
    const preview = editOf(
      { file_path, old_string: "    return a + b", new_string: '    """Add."""\n    return a + b' },
      "old",
    );
    expect(preview).toEqual({
      oldText: "\ndef add(a, b):\n    return a + b\n\nprint(add(1, 2))",
      newText: '\ndef add(a, b):\n    """Add."""\n    return a + b\n\nprint(add(1, 2))',
      firstLine: 2,
    });
    const lines = diffLines(preview?.oldText ?? "", preview?.newText ?? "", 2, preview?.firstLine);
    expect(lines.map((l) => `${l.number}${l.kind === "add" ? "+" : l.kind === "remove" ? "-" : " "}${l.text}`)).toEqual(
      ["2 ", "3 def add(a, b):", '4+    """Add."""', "5     return a + b", "6 "],
    );
  });

  it("an edit on the first line after an empty one, or on the last line without a newline, stays in the file", () => {
    const file_path = fileWith("\nlast");
    expect(editOf({ file_path, old_string: "last", new_string: "final" }, "old")).toEqual({
      oldText: "\nlast",
      newText: "\nfinal",
      firstLine: 1,
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

  it("keeps whole lines whole, the lines around them added as whole lines", () => {
    const file_path = fileWith("one\ntwo\nthree\nfour\nfive\n");
    expect(editOf({ file_path, old_string: "two\n", new_string: "2\n" }, "old")).toEqual({
      oldText: "one\ntwo\nthree\nfour\n",
      newText: "one\n2\nthree\nfour\n",
      firstLine: 1,
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
