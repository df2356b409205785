// Raw terminal bytes → key events, including sequences split across chunks and pastes.
import { describe, expect, it } from "vitest";
import { KeyParser } from "../../src/ui/input/keys.js";

describe("KeyParser", () => {
  it("reads typing, control keys and escape sequences", () => {
    const parser = new KeyParser();
    expect(parser.push("ab\x1b[A\x1b[Z\r\x7f\x03")).toEqual([
      { kind: "text", text: "ab" },
      { kind: "key", name: "up" },
      { kind: "key", name: "shiftTab" },
      { kind: "key", name: "enter" },
      { kind: "key", name: "backspace" },
      { kind: "key", name: "ctrlC" },
    ]);
  });

  it("keeps a sequence split across chunks whole, and a lone ESC pending until flushed", () => {
    const parser = new KeyParser();
    expect(parser.push("\x1b[")).toEqual([]);
    expect(parser.push("B")).toEqual([{ kind: "key", name: "down" }]);
    expect(parser.push("\x1b")).toEqual([]);
    expect(parser.hasPendingEscape).toBe(true);
    expect(parser.flushPendingEscape()).toEqual([{ kind: "key", name: "escape" }]);
  });

  it("reads a bracketed paste as one event, even over several chunks, with newlines kept", () => {
    const parser = new KeyParser();
    expect(parser.push("\x1b[200~one\r\ntw")).toEqual([]);
    expect(parser.push("o\x1b[201~x")).toEqual([
      { kind: "paste", text: "one\ntwo" },
      { kind: "text", text: "x" },
    ]);
  });

  it("treats several lines in one chunk without brackets as a paste, but text then Enter as typing", () => {
    const parser = new KeyParser();
    expect(parser.push("first\rsecond\r")).toEqual([
      { kind: "paste", text: "first\nsecond" },
      { kind: "key", name: "enter" },
    ]);
    expect(parser.push("hello\r")).toEqual([
      { kind: "text", text: "hello" },
      { kind: "key", name: "enter" },
    ]);
  });
});
