// The text checks every Read of a text file runs through (src/tools/file-shared/encoding.ts,
// line-numbers.ts): what they answer, and that they make no garbage per byte or per line beyond
// their result. A turn of Reads runs them cold (never optimised by V8), where an iterator's result
// objects or padStart's copies each cost heap: enough, over 8 Reads, to bring a collection between
// the model's answer and the follow-up request (docs/performance.md, issue 39).
import { getHeapSpaceStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { looksBinary } from "../../../src/tools/file-shared/encoding.js";
import { addLineNumbers, formatNumberedLine } from "../../../src/tools/file-shared/line-numbers.js";

function youngGenerationUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_used_size ?? 0;
}

describe("looksBinary", () => {
  it("tells text from binary: a NUL byte, or more than a tenth control bytes", () => {
    expect(looksBinary(new Uint8Array(0))).toBe(false);
    expect(looksBinary(Buffer.from("plain text\n\twith a tab\r\n"))).toBe(false);
    expect(looksBinary(Buffer.from("text\0more"))).toBe(true);
    expect(looksBinary(Buffer.from("\x01\x02\x03abcdefg"))).toBe(true);
    // Escape (colour codes) and the whitespace controls are text.
    expect(looksBinary(Buffer.from("\x1b[31mred\x1b[0m\f\v\n"))).toBe(false);
  });

  it("reads a sample without allocating per byte", () => {
    // A sample the size of Read's head check: `for (const byte of sample)` made ~40 bytes of
    // garbage a byte here (~330 KB), an indexed loop none. (Small enough not to set off a
    // collection, which would hide the garbage.)
    const sample = Buffer.alloc(8 * 1024, "a");
    const before = youngGenerationUsed();
    expect(looksBinary(sample)).toBe(false);
    expect(youngGenerationUsed() - before).toBeLessThan(16 * 1024);
  });
});

describe("line numbers", () => {
  it("right-aligns each number in six columns before a tab, wider numbers as they are", () => {
    const lines = ["first", "", "third\tcolumn"];
    expect(addLineNumbers(lines, 1)).toBe("     1\tfirst\n     2\t\n     3\tthird\tcolumn");
    expect(addLineNumbers(["a", "b", "c"], 99_999)).toBe(" 99999\ta\n100000\tb\n100001\tc");
    expect(addLineNumbers(["wide"], 1_234_567)).toBe("1234567\twide");
    expect(addLineNumbers([], 1)).toBe("");
    expect(formatNumberedLine(42, "x")).toBe("    42\tx");
  });

  it("makes no string per line beyond its result once the numbers have been seen", () => {
    // Reads number from the same small numbers again and again; each line's prefix made anew (as
    // padStart and a template did) was ~10 KB of garbage for a 50-line file, cold; now ~5 (the
    // array of pieces and the result).
    const lines = Array.from({ length: 50 }, (_, i) => `part ${i % 8}`);
    addLineNumbers(lines, 1);
    const before = youngGenerationUsed();
    const numbered = addLineNumbers(lines, 1);
    expect(youngGenerationUsed() - before).toBeLessThan(7 * 1024);
    expect(numbered.split("\n")).toHaveLength(50);
  });

  it("numbers lines the way cat -n style padding did, for every width", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    for (const first of [1, 8, 95, 990, 9_990, 99_990, 999_990]) {
      const expected = lines.map((line, i) => `${String(first + i).padStart(6, " ")}\t${line}`).join("\n");
      expect(addLineNumbers(lines, first)).toBe(expected);
    }
  });
});
