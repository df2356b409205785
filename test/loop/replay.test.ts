import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createReplayProvider } from "../../src/providers/replay.js";
import { ProviderError, type ProviderEvent } from "../../src/providers/types.js";
import { tempDir, writeScript } from "./helpers.js";

function request(signal = new AbortController().signal) {
  return { model: "m", system: "", messages: [], tools: [], maxTokens: 100, signal };
}

async function events(
  provider: ReturnType<typeof createReplayProvider>,
  signal?: AbortSignal,
): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const e of provider.stream(request(signal))) out.push(e);
  return out;
}

function scriptError(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

describe("replay provider", () => {
  it("streams each turn in order: text deltas, complete blocks, usage, stop reason", async () => {
    const dir = tempDir();
    const file = writeScript(dir, [
      {
        content: [
          { type: "text", text: "look at {{cwd}}/a.txt" },
          { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "{{cwd}}/a.txt", nested: ["{{cwd}}"] } },
        ],
        usage: { input_tokens: 7, output_tokens: 3 },
      },
      { content: [{ type: "text", text: "bye" }], stop_reason: "max_tokens" },
    ]);
    const provider = createReplayProvider(file, { cwd: dir });
    expect(await events(provider)).toEqual([
      { type: "text_delta", text: `look at ${dir}/a.txt` },
      { type: "block", block: { type: "text", text: `look at ${dir}/a.txt` } },
      {
        type: "block",
        block: { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: `${dir}/a.txt`, nested: [dir] } },
      },
      { type: "usage", usage: { input_tokens: 7, output_tokens: 3 } },
      { type: "stop", stopReason: "tool_use" },
    ]);
    expect((await events(provider)).at(-1)).toEqual({ type: "stop", stopReason: "max_tokens" });
  });

  it("fails with a clear script error when the script runs out", async () => {
    const dir = tempDir();
    const provider = createReplayProvider(writeScript(dir, [{ content: [] }]), { cwd: dir });
    await events(provider);
    const error = await events(provider).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("script");
    expect((error as ProviderError).message).toMatch(/ran out.*turn 2.*only 1/);
  });

  it("rejects a malformed script when it is created, naming the file and line", () => {
    const dir = tempDir();
    const path = join(dir, "bad.jsonl");
    writeFileSync(path, '{"content":[]}\n\n{"content":[{"type":"text","text":"x"}\n');
    const error = scriptError(() => createReplayProvider(path, { cwd: dir }));
    expect(error.kind).toBe("script");
    expect(error.message).toContain(`${path} line 3: not valid JSON`);
  });

  it.each([
    [{ content: "hi" }, /"content" must be an array/],
    [{ content: [{ type: "image" }] }, /unknown content block type "image"/],
    [{ content: [{ type: "tool_use", id: "t", name: "Read" }] }, /tool_use "t" needs an object "input"/],
    [{ content: [{ type: "tool_use", name: "Read", input: {} }] }, /needs an "id"/],
    [{ content: [], stop_reason: "done" }, /"stop_reason" must be one of/],
    [{ content: [], usage: { input_tokens: "1" } }, /"usage" needs numeric/],
    [[1, 2], /must be a JSON object/],
  ])("explains what is wrong with %j", (turn, message) => {
    const dir = tempDir();
    const error = scriptError(() => createReplayProvider(writeScript(dir, [turn]), { cwd: dir }));
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/line 1/);
  });

  it("says so when the script file does not exist", () => {
    const dir = tempDir();
    const error = scriptError(() => createReplayProvider("missing.jsonl", { cwd: dir }));
    expect(error.message).toBe(`replay script ${join(dir, "missing.jsonl")}: no such file`);
  });

  it("plays a scripted failure and stops a delayed turn at once on abort", async () => {
    const dir = tempDir();
    const provider = createReplayProvider(
      writeScript(dir, [{ error: { message: "overloaded", status: 529 } }, { content: [], delay_ms: 60_000 }]),
      { cwd: dir },
    );
    await expect(events(provider)).rejects.toMatchObject({ message: "overloaded", status: 529, kind: "http" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await expect(events(provider, controller.signal)).rejects.toMatchObject({ kind: "aborted" });
  });
});
