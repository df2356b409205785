// The diff view: an edit as a reviewer reads it.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { createElement } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let render: typeof import("ink-testing-library").render;
let Box: typeof import("ink").Box;
let DiffView: typeof import("../../src/ui/components/DiffView.js").DiffView;
let diffLines: typeof import("../../src/ui/components/DiffView.js").diffLines;
let diffStats: typeof import("../../src/ui/components/DiffView.js").diffStats;
// Colours on, as in a terminal. ink's chalk decided its level when it first loaded, which in a
// worker that ran other files was before this file (and without a terminal: no colours), so the
// level is set on ink's own chalk for this file and put back after it.
let inkChalk: { level: number };
let levelBefore = 0;
beforeAll(async () => {
  const inkRequire = createRequire(createRequire(import.meta.url).resolve("ink"));
  inkChalk = (await import(pathToFileURL(inkRequire.resolve("chalk")).href)).default;
  levelBefore = inkChalk.level;
  inkChalk.level = 1;
  ({ render } = await import("ink-testing-library"));
  ({ Box } = await import("ink"));
  ({ DiffView, diffLines, diffStats } = await import("../../src/ui/components/DiffView.js"));
});
afterAll(() => {
  inkChalk.level = levelBefore;
});

const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, "");

describe("DiffView", () => {
  it("shows removed and added lines with their numbers and a little context", () => {
    const oldText = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    const newText = ["a", "b", "C", "d", "e", "f", "g", "h", "i"].join("\n");
    const { lastFrame, unmount } = render(createElement(DiffView, { oldText, newText, context: 1 }));
    const lines = plain(lastFrame() ?? "")
      .split("\n")
      .map((l) => l.trimEnd());
    unmount();
    expect(lines).toContain("2   b");
    expect(lines).toContain("3 - c");
    expect(lines).toContain("3 + C");
    expect(lines).toContain("4   d");
    expect(lines).toContain("9 + i");
    expect(lines).not.toContain("1   a");
    expect(lines.some((l) => l.trim() === "...")).toBe(true);
  });

  it("colours removals red and additions green (and only them)", () => {
    const { lastFrame, unmount } = render(createElement(DiffView, { oldText: "old\nsame\n", newText: "new\nsame\n" }));
    const frame = lastFrame() ?? "";
    unmount();
    // The number and sign, then the text, each in the line's colour.
    expect(frame).toMatch(/\x1b\[31m1 - (\x1b\[39m)?\s*(\x1b\[31m)?old/);
    expect(frame).toMatch(/\x1b\[32m1 \+ (\x1b\[39m)?\s*(\x1b\[32m)?new/);
    expect(frame).not.toMatch(/\x1b\[3[12]m2 {3}same/);
  });

  it("counts an edit's lines as git does: text appended after a line adds lines and removes none", () => {
    // Edit(old_string "return a;", new_string "return a;\n// x\n// y\n// z"): git shows 3 added, 0 removed.
    expect(diffStats(diffLines("  return a;", "  return a;\n  // x\n  // y\n  // z"))).toEqual({
      added: 3,
      removed: 0,
    });
    expect(diffStats(diffLines("a\nb", "a\nB"))).toEqual({ added: 1, removed: 1 });
    expect(diffStats(diffLines("a\nb\n", "a\nb\nc\n"))).toEqual({ added: 1, removed: 0 });
    const lines = diffLines("one", "one\ntwo").map((l) => `${l.kind} ${l.text}`);
    expect(lines).toEqual(["context one", "add two"]);
  });

  it("wraps a long line under its own text, past the line numbers", () => {
    const long = Array.from({ length: 12 }, (_, i) => `word${i}`).join(" ");
    const { lastFrame, unmount } = render(
      createElement(Box, { width: 30 }, createElement(DiffView, { oldText: "short\n", newText: `${long}\n` })),
    );
    const lines = plain(lastFrame() ?? "").split("\n");
    unmount();
    const added = lines.findIndex((l) => l.startsWith("1 + word0"));
    expect(added).toBeGreaterThan(-1);
    const continued = lines.slice(added + 1).filter((l) => l.trim() !== "");
    expect(continued.length).toBeGreaterThan(0);
    for (const line of continued) expect(line).toMatch(/^ {4}word/);
  });

  it("counts what is left out past maxLines", () => {
    const oldText = Array.from({ length: 30 }, (_, i) => `old ${i}`).join("\n");
    const newText = Array.from({ length: 30 }, (_, i) => `new ${i}`).join("\n");
    const { lastFrame, unmount } = render(createElement(DiffView, { oldText, newText, maxLines: 10 }));
    const frame = plain(lastFrame() ?? "");
    unmount();
    expect(frame).toContain("... 50 more lines");
    expect(diffStats(diffLines(oldText, newText))).toEqual({ added: 30, removed: 30 });
  });
});
