// Read takes a small file whole in one read (lineWindowOfBytes) and a larger one in 64 KB steps
// (readLineWindow). The model must see the same window either way: lines, counts, the final
// newline, CRLF endings, byte order marks, UTF-16, cut long lines, a multi-byte character split
// across the steps' chunk boundary, and broken encodings (the whole-file decoder is shared between
// reads, so a window stopped early or a broken tail must leave nothing behind for the next one).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TextEncoding } from "../../src/tools/file-shared/encoding.js";
import { lineWindowOfBytes, readLineWindow } from "../../src/tools/read/text-window.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "warden-small-window-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const utf8 = (text: string) => Buffer.from(text, "utf8");
const FILES: Record<string, { bytes: Buffer; encoding: TextEncoding }> = {
  empty: { bytes: utf8(""), encoding: "utf8" },
  newlineOnly: { bytes: utf8("\n"), encoding: "utf8" },
  oneLine: { bytes: utf8("alpha"), encoding: "utf8" },
  crlf: { bytes: utf8("one\r\ntwo\r\n\r\nfour"), encoding: "utf8" },
  long: { bytes: utf8(`${"x".repeat(50)}\nshort\n${"y".repeat(49)}`), encoding: "utf8" },
  // A line far longer than the cut, spanning several 64 KB steps, then more lines.
  hugeLine: { bytes: utf8(`${"z".repeat(200_000)}\nafter\n`), encoding: "utf8" },
  // "é" (two bytes) straddles the first step's 64 KB boundary.
  splitChar: { bytes: utf8(`${"a".repeat(65_535)}é\nnext\n`), encoding: "utf8" },
  many: { bytes: utf8(`${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`), encoding: "utf8" },
  bom: { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8("with bom\nsecond\n")]), encoding: "utf8bom" },
  // Broken UTF-8: a stray continuation byte inside, and a sequence the file ends in the middle of.
  brokenUtf8: {
    bytes: Buffer.concat([utf8("ok\n"), Buffer.from([0x80]), utf8("mid\nend "), Buffer.from([0xe2, 0x82])]),
    encoding: "utf8",
  },
  // UTF-16 cut after an odd byte.
  utf16Odd: {
    bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("odd\nend", "utf16le"), Buffer.from([0x41])]),
    encoding: "utf16le",
  },
  utf16: {
    bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("wide one\r\nwide two\n", "utf16le")]),
    encoding: "utf16le",
  },
};

describe("lineWindowOfBytes", () => {
  it("gives readLineWindow's window for the same bytes, at every offset and limit", async () => {
    let compared = 0;
    for (const [name, { bytes, encoding }] of Object.entries(FILES)) {
      const file = join(dir, `${name}.txt`);
      await writeFile(file, bytes);
      for (const offset of [1, 2, 3, 10, 29, 31, 40]) {
        for (const limit of [1, 2, 5, 29, 2000]) {
          const options = { offset, limit, maxLineChars: 40, encoding };
          const fromDisk = await readLineWindow(file, options);
          const whole = lineWindowOfBytes(bytes, options);
          const { bytesRead: _disk, ...disk } = fromDisk;
          const { bytesRead: _whole, ...memory } = whole;
          expect(memory, `${name} offset ${offset} limit ${limit}`).toEqual(disk);
          if (disk.totalLines !== undefined) expect(whole.bytesRead, name).toBe(fromDisk.bytesRead);
          compared++;
        }
      }
    }
    expect(compared).toBe(Object.keys(FILES).length * 35);
    // The cases really exercise what they name.
    const crlf = lineWindowOfBytes(FILES.crlf!.bytes, { offset: 1, limit: 10, maxLineChars: 40, encoding: "utf8" });
    expect(crlf.lines).toEqual(["one", "two", "", "four"]);
    const split = lineWindowOfBytes(FILES.splitChar!.bytes, {
      offset: 1,
      limit: 10,
      maxLineChars: 70_000,
      encoding: "utf8",
    });
    expect(split.lines[0]?.endsWith("aé")).toBe(true);
  });
});
