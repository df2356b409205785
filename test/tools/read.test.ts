import { mkdir, truncate, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReadTool } from "../../src/tools/read/tool.js";
import { callText, callTool, makeProject, type TestProject, validationCode, validationMessage } from "./helpers.js";
import { makePdf } from "./pdf-fixture.js";

let project: TestProject;
beforeEach(async () => {
  project = await makeProject();
});
afterEach(async () => {
  await project.cleanup();
});

const lines = (n: number, prefix = "line") => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join("\n");

describe("Read: text", () => {
  it("returns numbered lines and records the read", async () => {
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "alpha\nbeta\ngamma\n");
    const text = await callText(ReadTool, { file_path: file }, project.context);
    expect(text).toBe("     1\talpha\n     2\tbeta\n     3\tgamma");
    const record = project.context.readFileState.get(file);
    expect(record?.content).toBe("alpha\nbeta\ngamma\n");
    expect(record?.offset).toBe(1);
  });

  it("reads at most 2,000 lines by default and says how to read on", async () => {
    const file = path.join(project.dir, "long.txt");
    await writeFile(file, lines(2500));
    const text = await callText(ReadTool, { file_path: file }, project.context);
    expect(text).toContain("  2000\tline 2000");
    expect(text).not.toContain("line 2001");
    expect(text).toContain("offset: 2001");
  });

  it("honours offset and limit (1-based)", async () => {
    const file = path.join(project.dir, "long.txt");
    await writeFile(file, lines(100));
    const text = await callText(ReadTool, { file_path: file, offset: 10, limit: 3 }, project.context);
    expect(text.split("\n").slice(0, 3)).toEqual(["    10\tline 10", "    11\tline 11", "    12\tline 12"]);
  });

  it("treats offset 0 as the first line", async () => {
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "first\nsecond\n");
    expect(await callText(ReadTool, { file_path: file, offset: 0, limit: 1 }, project.context)).toBe(
      "     1\tfirst\n\n(Showing lines 1-1; the file continues. Use offset: 2 to read on.)",
    );
  });

  it("cuts long lines", async () => {
    const file = path.join(project.dir, "wide.txt");
    await writeFile(file, `${"x".repeat(5000)}\nshort`);
    const text = await callText(ReadTool, { file_path: file }, project.context);
    expect(text).toContain("line cut at 2000 characters");
    expect(text).toContain("     2\tshort");
    expect(text.length).toBeLessThan(2300);
  });

  it("refuses a whole read over 256 KB, explaining how to read in parts, and allows a window", async () => {
    const file = path.join(project.dir, "big.txt");
    await writeFile(file, lines(40_000, "some longer line of text"));
    const result = await callTool(ReadTool, { file_path: file }, project.context);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/256 KB/);
    expect(String(result.content)).toMatch(/offset and limit/);
    const window = await callText(ReadTool, { file_path: file, offset: 30_000, limit: 5 }, project.context);
    expect(window).toContain(" 30000\tsome longer line of text 30000");
  });

  it("refuses a window whose output would exceed the token limit", async () => {
    const file = path.join(project.dir, "dense.txt");
    await writeFile(file, Array.from({ length: 200 }, () => "y".repeat(1900)).join("\n"));
    const result = await callTool(ReadTool, { file_path: file, offset: 1, limit: 200 }, project.context);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/token limit/);
  });

  it("returns the unchanged stub for the same read of an unchanged file, and content again after a change", async () => {
    const file = path.join(project.dir, "a.txt");
    await writeFile(file, "one\ntwo\n");
    await callText(ReadTool, { file_path: file }, project.context);
    expect(await callText(ReadTool, { file_path: file }, project.context)).toMatch(/^File unchanged since last read/);
    expect(await callText(ReadTool, { file_path: file, offset: 2 }, project.context)).toBe("     2\ttwo");
    await writeFile(file, "one\nthree\n");
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    expect(await callText(ReadTool, { file_path: file, offset: 2 }, project.context)).toBe("     2\tthree");
  });

  it("warns on an empty file and on an offset past the end", async () => {
    const empty = path.join(project.dir, "empty.txt");
    await writeFile(empty, "");
    expect(await callText(ReadTool, { file_path: empty }, project.context)).toMatch(/exists but is empty/);
    const short = path.join(project.dir, "short.txt");
    await writeFile(short, "a\nb\n");
    expect(await callText(ReadTool, { file_path: short, offset: 10 }, project.context)).toMatch(/only 2 line/);
  });

  it("reads UTF-16LE files with a BOM and CRLF files as plain lines", async () => {
    const utf16 = path.join(project.dir, "wide.txt");
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("héllo\nwörld\n", "utf16le")]));
    expect(await callText(ReadTool, { file_path: utf16 }, project.context)).toBe("     1\théllo\n     2\twörld");
    const crlf = path.join(project.dir, "dos.txt");
    await writeFile(crlf, "one\r\ntwo\r\n");
    expect(await callText(ReadTool, { file_path: crlf }, project.context)).toBe("     1\tone\n     2\ttwo");
  });
});

describe("Read: refusals", () => {
  it("resolves a relative path against the working directory, so a missing one is named absolutely", async () => {
    const message = await validationMessage(ReadTool, { file_path: "src/a.ts" }, project.context);
    expect(message).toContain(`File does not exist: ${path.join(project.dir, "src", "a.ts")}`);
  });

  it("expands ~ to the home folder", async () => {
    const home = process.env.HOME;
    process.env.HOME = project.dir;
    try {
      await writeFile(path.join(project.dir, "note.txt"), "hi\n");
      expect(await callText(ReadTool, { file_path: "~/note.txt" }, project.context)).toBe("     1\thi");
    } finally {
      process.env.HOME = home;
    }
  });

  it.each([
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/stdin",
    "/dev/tty",
    "/dev/fd/0",
    "/proc/self/fd/0",
    "/proc/1/fd/2",
  ])("refuses the device %s", async (device) => {
    const message = await validationMessage(ReadTool, { file_path: device }, project.context);
    expect(message).toMatch(/device/);
  });

  it("names similar files when the file is missing", async () => {
    await writeFile(path.join(project.dir, "config.ts"), "");
    await writeFile(path.join(project.dir, "confg.json"), "");
    const message = await validationMessage(
      ReadTool,
      { file_path: path.join(project.dir, "config.js") },
      project.context,
    );
    expect(message).toMatch(/does not exist/);
    expect(message).toContain(path.join(project.dir, "config.ts"));
  });

  it("refuses binary files by extension and by content", async () => {
    const zip = path.join(project.dir, "a.zip");
    await writeFile(zip, Buffer.from([0x50, 0x4b, 3, 4]));
    expect(await validationCode(ReadTool, { file_path: zip }, project.context)).toBe(4);
    const blob = path.join(project.dir, "blob.unknown");
    await writeFile(blob, Buffer.from([1, 2, 0, 0, 5, 6]));
    const result = await callTool(ReadTool, { file_path: blob }, project.context);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/binary/);
  });

  it("refuses a directory, pointing at Glob", async () => {
    await mkdir(path.join(project.dir, "sub"));
    expect(await validationMessage(ReadTool, { file_path: path.join(project.dir, "sub") }, project.context)).toMatch(
      /directory.*Glob/,
    );
  });

  it("reads a window of a huge sparse file without reading the whole file", async () => {
    const file = path.join(project.dir, "huge.log");
    await writeFile(file, lines(3000));
    await truncate(file, 2 * 1024 * 1024 * 1024);
    const text = await callText(ReadTool, { file_path: file, offset: 2990, limit: 5 }, project.context);
    expect(text.split("\n")[0]).toBe("  2990\tline 2990");
  });
});

describe("Read: images, PDFs, notebooks", () => {
  it("returns a PNG as an image block", async () => {
    const file = path.join(project.dir, "dot.png");
    await sharp({ create: { width: 20, height: 10, channels: 3, background: "#ff0000" } })
      .png()
      .toFile(file);
    const result = await callTool(ReadTool, { file_path: file }, project.context);
    expect(Array.isArray(result.content)).toBe(true);
    const blocks = result.content as Array<{ type: string; source?: { media_type: string; data: string } }>;
    const image = blocks.find((b) => b.type === "image")!;
    expect(image.source!.media_type).toBe("image/png");
    const meta = await sharp(Buffer.from(image.source!.data, "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([20, 10]);
  });

  it.each([
    ["gif", "image/gif"],
    ["webp", "image/webp"],
  ] as const)("returns a %s as an image block of its own type", async (format, mediaType) => {
    const file = path.join(project.dir, `pic.${format}`);
    await sharp({ create: { width: 8, height: 8, channels: 3, background: "#00ff00" } })
      .toFormat(format)
      .toFile(file);
    const result = await callTool(ReadTool, { file_path: file }, project.context);
    const blocks = result.content as Array<{ type: string; source?: { media_type: string } }>;
    expect(blocks.find((b) => b.type === "image")?.source?.media_type).toBe(mediaType);
  });

  it("scales a large image down to fit the budget", async () => {
    const file = path.join(project.dir, "wide.jpg");
    await sharp({ create: { width: 4000, height: 1000, channels: 3, background: "#3366aa" } })
      .jpeg()
      .toFile(file);
    const result = await callTool(ReadTool, { file_path: file }, project.context);
    const blocks = result.content as Array<{ type: string; text?: string; source?: { data: string } }>;
    const meta = await sharp(Buffer.from(blocks.find((b) => b.type === "image")!.source!.data, "base64")).metadata();
    expect(meta.width).toBe(2000);
    expect(meta.height).toBe(500);
    expect(blocks[0]!.text).toMatch(/scaled from 4000x1000 to 2000x500/);
  });

  it("reads a PDF as text, by page range", async () => {
    const file = path.join(project.dir, "doc.pdf");
    await writeFile(file, makePdf(["First page text", "Second page text", "Third page text"]));
    const all = await callText(ReadTool, { file_path: file }, project.context);
    expect(all).toContain("First page text");
    expect(all).toContain("Third page text");
    const two = await callText(ReadTool, { file_path: file, pages: "2" }, project.context);
    expect(two).toContain("Second page text");
    expect(two).not.toContain("First page text");
    expect(two).toMatch(/pages 2-2 of 3/);
  });

  it("requires pages for a long PDF and rejects a malformed range", async () => {
    const file = path.join(project.dir, "long.pdf");
    await writeFile(file, makePdf(Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`)));
    const result = await callTool(ReadTool, { file_path: file }, project.context);
    expect(result.is_error).toBe(true);
    expect(String(result.content)).toMatch(/12 pages.*pages/s);
    expect(await callText(ReadTool, { file_path: file, pages: "11-12" }, project.context)).toContain("Page 12");
    expect(await validationMessage(ReadTool, { file_path: file, pages: "5-2" }, project.context)).toMatch(
      /not a valid range/,
    );
  });

  it("reads a notebook as cells with their outputs", async () => {
    const file = path.join(project.dir, "nb.ipynb");
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { language_info: { name: "python" } },
      cells: [
        { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Title\n", "text"] },
        {
          cell_type: "code",
          id: "calc",
          metadata: {},
          execution_count: 1,
          source: "print(1 + 1)",
          outputs: [{ output_type: "stream", name: "stdout", text: ["2\n"] }],
        },
      ],
    };
    await writeFile(file, JSON.stringify(notebook));
    const text = await callText(ReadTool, { file_path: file }, project.context);
    expect(text).toContain('<cell id="intro" type="markdown">\n# Title\ntext');
    expect(text).toContain('<cell id="calc" type="code" language="python">\nprint(1 + 1)\n<outputs>\n2\n');
    expect(project.context.readFileState.has(file)).toBe(true);
  });
});

describe("Read: declared traits", () => {
  it("is read-only, concurrency-safe and never persisted", () => {
    const input = { file_path: "/x" };
    expect(ReadTool.isReadOnly(input)).toBe(true);
    expect(ReadTool.isConcurrencySafe(input)).toBe(true);
    expect(ReadTool.maxResultSizeChars).toBe(Number.POSITIVE_INFINITY);
    expect(ReadTool.getPath!({ file_path: "/a/../b.txt" }, "/c")).toBe("/b.txt");
    expect(ReadTool.getPath!({ file_path: "../b.txt" }, "/c/d")).toBe("/c/b.txt");
  });
});
