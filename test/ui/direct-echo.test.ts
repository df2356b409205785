// The prompt's direct echo (src/ui/input/direct-echo.ts): which edits are drawn ahead of the
// frame, the bytes that draw them, and where the prompt's line is found in a real ink layout.
import { Box, type DOMElement, Text } from "ink";
import { render } from "ink-testing-library";
import { createElement, createRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { type EchoCase, echoBytes, promptPlace } from "../../src/ui/input/direct-echo.js";
import { emptyEditor, insertText, moveCursor } from "../../src/ui/input/line-editor.js";

const typed = (before: string, keys: string): EchoCase => {
  const state = insertText(emptyEditor(), before);
  return {
    before: state,
    after: insertText(state, keys),
    typed: keys,
    prefix: "> ",
    cursorBlock: "_",
    place: { rowsUp: 3, frameHeight: 12 },
    columns: 100,
    rows: 30,
  };
};

describe("echoBytes", () => {
  it("writes the characters after the text on the prompt's line, clears the rest of it and goes back down", () => {
    // Up 3 rows, column 2 + 5 = 7 (1-based 8), the key and the cursor, erase to the end of the line,
    // back to column 0, down 3.
    expect(echoBytes(typed("hello", "x"))).toBe("\x1b[3A\x1b[8Gx_\x1b[K\r\x1b[3B");
    expect(echoBytes(typed("", "ab"))).toBe("\x1b[3A\x1b[3Gab_\x1b[K\r\x1b[3B");
  });

  it("leaves every other edit to the frame", () => {
    // Not at the end of the text.
    const middle = typed("hello", "x");
    const moved = moveCursor(middle.before, "left");
    expect(echoBytes({ ...middle, before: moved, after: insertText(moved, "x") })).toBeUndefined();
    // Several lines, characters wider than a column or control bytes, a marker that is not plain.
    expect(echoBytes(typed("first\nsecond", "x"))).toBeUndefined();
    expect(echoBytes(typed("héllo", "x"))).toBeUndefined();
    expect(echoBytes(typed("hello", "日"))).toBeUndefined();
    expect(echoBytes({ ...typed("hello", "x"), prefix: "❯ " })).toBeUndefined();
    // The edit did something else than append what was typed (a history entry, a completion).
    expect(echoBytes({ ...typed("hello", "x"), after: insertText(emptyEditor(), "other") })).toBeUndefined();
  });

  it("never draws where it would wrap, nor in a frame as tall as the terminal or not laid out", () => {
    const long = "a".repeat(95);
    expect(echoBytes(typed(long, "b"))).toBe(`\x1b[3A\x1b[98Gb_\x1b[K\r\x1b[3B`);
    expect(echoBytes(typed(long, "bc"))).toBeUndefined();
    expect(echoBytes({ ...typed("hi", "x"), place: { rowsUp: 3, frameHeight: 30 } })).toBeUndefined();
    expect(echoBytes({ ...typed("hi", "x"), place: { rowsUp: 13, frameHeight: 12 } })).toBeUndefined();
    expect(echoBytes({ ...typed("hi", "x"), place: undefined })).toBeUndefined();
  });
});

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe("promptPlace", () => {
  it("counts the rows from under the frame up to the element's first line", () => {
    const prompt = createRef<DOMElement>();
    // A line of transcript, a bordered box around the prompt (top border, two lines, bottom
    // border) and a status line: 6 rows; the prompt's first line is row 2, 4 up from row 6.
    const app = render(
      createElement(
        Box,
        { flexDirection: "column" },
        createElement(Text, null, "● streaming"),
        createElement(
          Box,
          { borderStyle: "round" },
          createElement(
            Box,
            { ref: prompt, flexDirection: "column" },
            createElement(Text, null, "> first"),
            createElement(Text, null, "  second"),
          ),
        ),
        createElement(Text, null, "default mode"),
      ),
    );
    unmount = app.unmount;
    expect(app.lastFrame()?.split("\n")).toHaveLength(6);
    expect(promptPlace(prompt.current)).toEqual({ rowsUp: 4, frameHeight: 6 });
    expect(promptPlace(null)).toBeUndefined();
  });
});
