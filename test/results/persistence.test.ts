import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTools } from "../../src/orchestration/run-tools.js";
import { applyToolResultLimit } from "../../src/results/limit-result.js";
import { effectiveResultLimit, SYSTEM_MAX_RESULT_SIZE_CHARS } from "../../src/results/limits.js";
import { persistToolResult } from "../../src/results/persist.js";
import { generatePreview } from "../../src/results/preview.js";
import type { AnyTool } from "../../src/tool/types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import { GrepTool } from "../../src/tools/grep/tool.js";
import { builtInTools } from "../../src/tools/registry.js";
import {
  allowAll,
  CallLog,
  call,
  collect,
  makeContext,
  resultsOf,
  standardTools,
  tempSessionDir,
  textOfResult,
} from "../orchestration/fixtures.js";

/** Distinct lines so a preview or a file can be checked against the exact start of the output. */
function output(size: number): string {
  let text = "";
  for (let line = 0; text.length < size; line++) text += `line ${line} ${"x".repeat(40)}\n`;
  return text.slice(0, size);
}

async function runOne(toolName: string, size: number) {
  const sessionDir = await tempSessionDir();
  const context = makeContext(standardTools(new CallLog()), sessionDir);
  const id = `toolu_${toolName}_${size}`;
  const [result] = resultsOf(
    await collect(runTools([call(toolName, { ms: 0, output: output(size) }, id)], undefined, context, allowAll)),
  );
  return { result: result!, sessionDir, id };
}

describe("per-tool limits", () => {
  it("caps every declaration at the system limit of 50,000, and Infinity stays Infinity", () => {
    expect(SYSTEM_MAX_RESULT_SIZE_CHARS).toBe(50_000);
    expect(effectiveResultLimit({ maxResultSizeChars: 100_000 })).toBe(50_000);
    expect(effectiveResultLimit({ maxResultSizeChars: 30_000 })).toBe(30_000);
    expect(effectiveResultLimit({ maxResultSizeChars: 20_000 })).toBe(20_000);
    expect(effectiveResultLimit({ maxResultSizeChars: Number.POSITIVE_INFINITY })).toBe(Number.POSITIVE_INFINITY);
    expect(effectiveResultLimit({ maxResultSizeChars: Number.NaN })).toBe(50_000);
    expect(effectiveResultLimit(undefined)).toBe(50_000);
  });

  const thresholds = [
    { tool: "Bash", limit: 30_000 },
    { tool: "Grep", limit: 20_000 },
    { tool: "Safe", limit: 50_000 }, // default 100,000, capped
  ];
  for (const { tool, limit } of thresholds) {
    it(`${tool}: ${limit} characters go to the model whole`, async () => {
      const { result, sessionDir } = await runOne(tool, limit);
      expect(textOfResult(result)).toBe(output(limit));
      await expect(readdir(join(sessionDir, "tool-results"))).rejects.toThrow();
    });

    it(`${tool}: ${limit + 1} characters are saved in full, the model gets a 2 KB preview`, async () => {
      const { result, sessionDir, id } = await runOne(tool, limit + 1);
      const path = join(sessionDir, "tool-results", `${id}.txt`);
      expect(await readFile(path, "utf8")).toBe(output(limit + 1));
      const text = textOfResult(result);
      expect(text.startsWith("<persisted-output>\n")).toBe(true);
      expect(text.endsWith("\n</persisted-output>")).toBe(true);
      expect(text).toContain(`Full output saved to: ${path}`);
      expect(text).toContain(`Output too large (${((limit + 1) / 1024).toFixed(1)} KB)`);
      const { preview } = generatePreview(output(limit + 1));
      expect(text).toContain(`:\n${preview}\n...\n`);
      expect(Buffer.byteLength(preview)).toBeLessThanOrEqual(2_000);
      expect(output(limit + 1).startsWith(preview)).toBe(true);
      expect(text.length).toBeLessThan(2_400);
    });
  }

  it("Read is never persisted, even at 1,000,000 characters", async () => {
    const { result, sessionDir } = await runOne("Read", 1_000_000);
    expect(textOfResult(result).length).toBe(1_000_000);
    await expect(readdir(join(sessionDir, "tool-results"))).rejects.toThrow();
  });

  it("keeps is_error on a persisted error result", async () => {
    const sessionDir = await tempSessionDir();
    const limited = await applyToolResultLimit(
      { type: "tool_result", tool_use_id: "err1", content: output(60_000), is_error: true },
      { maxResultSizeChars: 100_000 },
      sessionDir,
    );
    expect(limited.is_error).toBe(true);
    expect(textOfResult(limited)).toContain("<persisted-output>");
  });

  it("leaves a result with an image whole (a text preview cannot stand in for it)", async () => {
    const content = [
      { type: "text" as const, text: output(60_000) },
      { type: "image" as const, source: { type: "base64" as const, media_type: "image/png", data: "AAAA" } },
    ];
    const result = { type: "tool_result" as const, tool_use_id: "img", content };
    expect(await applyToolResultLimit(result, undefined, await tempSessionDir())).toBe(result);
  });
});

describe("persistToolResult never overwrites", () => {
  it("leaves an existing file with other text alone and takes a new name", async () => {
    const sessionDir = await tempSessionDir();
    await mkdir(join(sessionDir, "tool-results"));
    const existing = join(sessionDir, "tool-results", "toolu_1.txt");
    await writeFile(existing, "earlier output");
    const path = await persistToolResult("new output", "toolu_1", sessionDir);
    expect(path).toBe(join(sessionDir, "tool-results", "toolu_1-2.txt"));
    expect(await readFile(existing, "utf8")).toBe("earlier output");
    expect(await readFile(path, "utf8")).toBe("new output");
  });

  it("reuses a file that already holds the same text", async () => {
    const sessionDir = await tempSessionDir();
    const first = await persistToolResult("same", "toolu_2", sessionDir);
    const second = await persistToolResult("same", "toolu_2", sessionDir);
    expect(second).toBe(first);
    expect(await readdir(join(sessionDir, "tool-results"))).toEqual(["toolu_2.txt"]);
  });

  it("keeps a hostile tool_use id inside the results folder", async () => {
    const sessionDir = await tempSessionDir();
    const path = await persistToolResult("x", "../../../etc/passwd", sessionDir);
    expect(path).toBe(join(sessionDir, "tool-results", "_________etc_passwd.txt"));
  });

  it("tells the model plainly when the disk refuses the write", async () => {
    const sessionDir = await tempSessionDir();
    // A file where the folder should be: refused even for root.
    await writeFile(join(sessionDir, "tool-results"), "in the way");
    const limited = await applyToolResultLimit(
      { type: "tool_result", tool_use_id: "nowrite", content: output(60_000) },
      undefined,
      sessionDir,
    );
    const text = textOfResult(limited);
    expect(text).toContain("could not be saved to disk");
    expect(text).toContain(output(60_000).slice(0, 500));
    expect(await readFile(join(sessionDir, "tool-results"), "utf8")).toBe("in the way");
  });
});

describe("generatePreview", () => {
  it("never splits a multi-byte character and stays within 2,000 bytes", () => {
    const text = "é".repeat(3_000);
    const { preview, hasMore } = generatePreview(text);
    expect(hasMore).toBe(true);
    expect(Buffer.byteLength(preview)).toBe(2_000);
    expect(preview).toBe("é".repeat(1_000));
    const emoji = generatePreview("😀".repeat(1_000));
    expect(Buffer.byteLength(emoji.preview)).toBeLessThanOrEqual(2_000);
    expect(emoji.preview).toBe("😀".repeat(500));
  });

  it("cuts at a line break in the second half of the window", () => {
    const text = `${"a".repeat(1_500)}\n${"b".repeat(1_000)}`;
    expect(generatePreview(text).preview).toBe("a".repeat(1_500));
  });

  it("returns short text whole", () => {
    expect(generatePreview("short")).toEqual({ preview: "short", hasMore: false });
  });
});

describe("the real tools' limits", () => {
  it("are what the system expects once capped", () => {
    const limits = Object.fromEntries(builtInTools().map((t) => [t.name, effectiveResultLimit(t)]));
    expect(limits).toMatchObject({ Read: Number.POSITIVE_INFINITY, Bash: 30_000, Grep: 20_000, Glob: 50_000 });
    for (const limit of Object.values(limits)) expect(limit === Number.POSITIVE_INFINITY || limit <= 50_000).toBe(true);
  });

  async function runReal(tool: AnyTool, input: Record<string, unknown>, sessionDir: string) {
    const context = makeContext([tool], sessionDir);
    const [result] = resultsOf(
      await collect(runTools([call(tool.name, input, `real_${tool.name}`)], undefined, context, allowAll)),
    );
    return result!;
  }

  it("Bash: 25,000 characters stay, 40,000 are saved (its own limit, under the system cap)", async () => {
    const sessionDir = await tempSessionDir();
    const small = await runReal(
      BashTool as AnyTool,
      { command: "head -c 25000 /dev/zero | tr '\\0' a", description: "print" },
      sessionDir,
    );
    expect(textOfResult(small)).toMatch(/^a{25000}/);
    const large = await runReal(
      BashTool as AnyTool,
      { command: "head -c 40000 /dev/zero | tr '\\0' b", description: "print" },
      sessionDir,
    );
    const text = textOfResult(large);
    expect(text.startsWith("<persisted-output>")).toBe(true);
    const path = /Full output saved to: (.*)/.exec(text)![1]!;
    expect(await readFile(path, "utf8")).toContain("b".repeat(40_000));
  });

  it("Grep: a result past 20,000 characters is saved", async () => {
    const sessionDir = await tempSessionDir();
    const file = join(sessionDir, "data.txt");
    await writeFile(file, Array.from({ length: 400 }, (_, i) => `match line ${i} ${"z".repeat(100)}`).join("\n"));
    const result = await runReal(
      GrepTool as AnyTool,
      { pattern: "match line", path: file, output_mode: "content" },
      sessionDir,
    );
    const text = textOfResult(result);
    expect(text.startsWith("<persisted-output>")).toBe(true);
    const path = /Full output saved to: (.*)/.exec(text)![1]!;
    expect((await readFile(path, "utf8")).length).toBeGreaterThan(20_000);
  });
});
