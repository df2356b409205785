// Read through an editor cuts its window from the editor's text in memory (windowOfText); the
// model must see exactly what Read from disk shows for the same content (lines, counts, the final
// newline, cut long lines), or the editor's view and the staleness records would drift apart.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLineWindow, windowOfText } from "../../src/tools/read/text-window.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-window-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const TEXTS: Record<string, string> = {
  empty: "",
  newlineOnly: "\n",
  oneLine: "alpha",
  oneLineNewline: "alpha\n",
  blankLines: "a\n\n\nb\n\n",
  long: `${"x".repeat(50)}\nshort\n${"y".repeat(49)}`,
  many: `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`,
};

describe("windowOfText", () => {
  it("gives readLineWindow's window for the same content, at every offset and limit", async () => {
    let compared = 0;
    for (const [name, text] of Object.entries(TEXTS)) {
      const file = join(dir, `${name}.txt`);
      await writeFile(file, text);
      for (const offset of [1, 2, 3, 10, 29, 31, 40]) {
        for (const limit of [1, 2, 5, 29, 2000]) {
          const options = { offset, limit, maxLineChars: 40 };
          const fromDisk = await readLineWindow(file, { ...options, encoding: "utf8" });
          const fromText = windowOfText(text, options);
          const { bytesRead: _disk, ...disk } = fromDisk;
          const { bytesRead: _text, ...memory } = fromText;
          expect(memory, `${name} offset ${offset} limit ${limit}`).toEqual(disk);
          compared++;
        }
      }
    }
    expect(compared).toBe(Object.keys(TEXTS).length * 35);
  });
});
