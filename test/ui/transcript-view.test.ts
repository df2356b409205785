// Finished transcript items as ink draws them: lines too long for the terminal wrap under their
// own block, not back at column 0.
import { createElement } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import type { TranscriptItem } from "../../src/ui/transcript/transcript-model.js";

let render: typeof import("ink-testing-library").render;
let ItemView: typeof import("../../src/ui/app/TranscriptView.js").ItemView;
let FinishedItems: typeof import("../../src/ui/app/TranscriptView.js").FinishedItems;
let RunningToolView: typeof import("../../src/ui/app/TranscriptView.js").RunningToolView;
beforeAll(async () => {
  ({ render } = await import("ink-testing-library"));
  ({ ItemView, FinishedItems, RunningToolView } = await import("../../src/ui/app/TranscriptView.js"));
});

const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, "");
const words = (count: number, word: string) => Array.from({ length: count }, (_, i) => `${word}${i}`).join(" ");

function frameOf(item: TranscriptItem): string[] {
  const { lastFrame, unmount } = render(createElement(ItemView, { item }));
  const lines = plain(lastFrame() ?? "")
    .split("\n")
    .filter((l) => l.trim() !== "");
  unmount();
  return lines;
}

describe("wrapped transcript lines", () => {
  it("a tool's output line continues under its text, indented past the ⎿", () => {
    const lines = frameOf({
      id: 1,
      kind: "tool",
      summary: "Bash(npm test)",
      result: { lines: [words(40, "output")], hidden: 0, isError: false },
    });
    expect(lines[0]).toContain("Bash(npm test)");
    expect(lines[1]).toMatch(/^ {2}⎿ {2}output0 /);
    expect(lines.length).toBeGreaterThan(2);
    for (const continued of lines.slice(2)) expect(continued).toMatch(/^ {5}\S/);
  });

  it("a long prompt continues under its text, past the '> '", () => {
    const lines = frameOf({ id: 2, kind: "user", text: words(40, "word") });
    expect(lines[0]).toMatch(/^> word0 /);
    expect(lines.length).toBeGreaterThan(1);
    for (const continued of lines.slice(1)) expect(continued).toMatch(/^ {2}\S/);
  });

  it("a long call line continues under the call, past the ●", () => {
    const lines = frameOf({
      id: 4,
      kind: "tool",
      summary: `Bash(${words(20, "arg")})`,
      result: { lines: ["ok"], hidden: 0, isError: false },
    });
    expect(lines[0]).toMatch(/^● Bash\(arg0 /);
    expect(lines[1]).toMatch(/^ {2}\S/);
  });

  it("a call line with one word longer than the terminal keeps '● ' and its indent", () => {
    const file = `${"a-rather-long-name-".repeat(8)}.txt`;
    const lines = frameOf({
      id: 5,
      kind: "tool",
      summary: `Bash(touch ${file})`,
      result: { lines: ["ok"], hidden: 0, isError: false },
    });
    expect(lines[0]).toMatch(/^● Bash\(touch a-rather/);
    expect(lines[1]).toMatch(/^ {2}\S/);

    const use = { type: "tool_use", id: "t1", name: "Bash", input: { command: `touch ${file}` } } as const;
    const running = render(
      createElement(RunningToolView, { tool: { use, summary: `Bash(touch ${file})`, startedAt: 0 }, now: 0 }),
    );
    const runningLines = plain(running.lastFrame() ?? "")
      .split("\n")
      .filter((l) => l.trim() !== "");
    running.unmount();
    expect(runningLines[0]).toMatch(/^● Bash\(touch a-rather/);
    expect(runningLines[1]).toMatch(/^ {2}\S/);
  });

  it.each([
    ["an answer", "assistant", "● "],
    ["a prompt", "user", "> "],
  ] as const)(
    "%s holding a word longer than the terminal (a URL) fits the width and wraps under itself",
    async (_name, kind, marker) => {
      const { Box } = await import("ink");
      const url = "https://example.com/a-very-long-url-path-that-does-not-fit-in-sixty-columns-at-all/and-more";
      const item: TranscriptItem = { id: 6, kind, text: url };
      const { lastFrame, unmount } = render(createElement(Box, { width: 60 }, createElement(ItemView, { item })));
      const lines = plain(lastFrame() ?? "")
        .split("\n")
        .filter((l) => l.trim() !== "");
      unmount();
      // A line one column too wide is wrapped by the terminal itself: its last character lands alone at column 0.
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
      expect(lines[0]).toBe(`${marker}${url.slice(0, 58)}`);
      for (const continued of lines.slice(1)) expect(continued).toMatch(/^ {2}\S/);
    },
  );

  it("an error result keeps its indent too", () => {
    const error = frameOf({
      id: 3,
      kind: "tool",
      summary: "Edit(a.ts)",
      result: { lines: [words(40, "failure")], hidden: 0, isError: true },
    });
    for (const continued of error.slice(2)) expect(continued).toMatch(/^ {5}\S/);
  });
});

describe("finished items as printed above the live part", () => {
  // ink-testing-library's terminal is 100 columns wide.
  const width = 100;

  it("no line is wider than the terminal, so none wraps back to column 0", () => {
    const message =
      "String to replace not found in /tmp/walk/repo/src/sum.js. old_string must match the file exactly, including whitespace and indentation, without line-number prefixes. Read the file again to copy the current text.";
    const items: TranscriptItem[] = [
      { id: 1, kind: "tool", summary: "Edit(src/sum.js)", result: { lines: [message], hidden: 0, isError: true } },
      {
        id: 2,
        kind: "tool",
        summary: "Bash(npm test)",
        result: { lines: [words(40, "output")], hidden: 0, isError: false },
      },
      { id: 3, kind: "user", text: words(40, "word") },
    ];
    const { stdout, unmount } = render(createElement(FinishedItems, { items, width }));
    const lines = plain(stdout.frames.join("")).split("\n");
    unmount();
    expect(lines.some((line) => line.includes("⎿  String to replace"))).toBe(true);
    expect(lines.some((line) => line.startsWith("     ") && line.includes("output3"))).toBe(true);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
  });
});
