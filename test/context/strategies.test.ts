import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { postCompactMessages } from "../../src/context/compact/post-compact.js";
import { microcompact } from "../../src/context/microcompact.js";
import { snipCount, snipMessages } from "../../src/context/snip.js";
import { contextThresholds } from "../../src/context/thresholds.js";
import type { Message } from "../../src/messages/types.js";
import { modelInfoFor } from "../../src/models/resolve.js";
import { readReplacementJournal } from "../../src/results/replacement-journal.js";
import { createToolResultReplacementState } from "../../src/results/replacement-state.js";
import { ReadFileState } from "../../src/tool/read-file-state.js";
import { CallLog, standardTools, tempSessionDir } from "../orchestration/fixtures.js";

/** A conversation of `turns` tool turns, each result `size` characters. */
function conversation(turns: number, size: number, tool = "Safe"): Message[] {
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "the task" }] }];
  for (let i = 0; i < turns; i++) {
    messages.push({
      role: "assistant",
      content: [{ type: "tool_use", id: `t${i}`, name: tool, input: { file_path: `/src/f${i}.ts` } }],
    });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `r${i}:`.padEnd(size, "x") }],
    });
  }
  return messages;
}

describe("thresholds", () => {
  it("derive from the model's window: room for the summary and a margin", () => {
    const sonnet = contextThresholds(modelInfoFor("anthropic", "claude-sonnet-4-5"));
    expect(sonnet.autoCompactAt).toBe(200_000 - 20_000 - 13_000);
    expect(sonnet.microcompactAt).toBe(Math.floor(167_000 * 0.6));
    const gpt5 = contextThresholds(modelInfoFor("openai", "gpt-5"));
    expect(gpt5.autoCompactAt).toBe(272_000 - 13_000);
    // A small local window keeps a proportionate margin.
    const local = contextThresholds({ contextWindow: 8_192, maxOutputTokens: 2_048 });
    expect(local.autoCompactAt).toBe(6_144 - 614);
  });

  it("size what a compaction puts back by the window: Claude Code's 20,000 on 200k, a few thousand on 32k", () => {
    expect(contextThresholds(modelInfoFor("anthropic", "claude-sonnet-4-5")).restoredStateMaxTokens).toBe(20_040);
    const local = contextThresholds(modelInfoFor("ollama", "qwen3-coder"));
    expect(local.autoCompactAt).toBe(22_119);
    expect(local.restoredStateMaxTokens).toBe(2_654);
  });
});

describe("snip", () => {
  it("removes nothing up to its threshold, then a step at a time, keeping the cut between steps", () => {
    expect(snipCount(400, 400, 200)).toBe(0);
    expect(snipCount(401, 400, 200)).toBe(200);
    expect(snipCount(599, 400, 200)).toBe(200);
    expect(snipCount(600, 400, 200)).toBe(400);
    const messages = conversation(12, 10); // 25 messages
    const cut = snipMessages(messages, 20, 10);
    expect(cut.removed).toBeGreaterThan(0);
    // The first message (the task) stays, with the note; the kept part starts with a call.
    expect(cut.messages[0]?.content[0]).toEqual({ type: "text", text: "the task" });
    expect(JSON.stringify(cut.messages[0])).toContain("[Earlier conversation snipped:");
    expect(JSON.stringify(cut.messages[0])).toContain("Safe ×");
    expect(cut.messages[1]?.role).toBe("assistant");
    // One more exchange: the same cut, the same first message byte for byte.
    const later = snipMessages(conversation(13, 10), 20, 10);
    expect(later.removed).toBe(cut.removed);
    expect(JSON.stringify(later.messages[0])).toBe(JSON.stringify(cut.messages[0]));
  });
});

describe("microcompact", () => {
  it("stubs the oldest results first, keeps the newest turns, saves the full text and freezes the decision", async () => {
    const sessionDir = await tempSessionDir();
    const state = createToolResultReplacementState();
    const messages = conversation(8, 8_000);
    const {
      messages: out,
      cleared,
      savedTokens,
    } = await microcompact(messages, {
      state,
      tools: standardTools(new CallLog()),
      sessionDir,
      keepTurns: 3,
      estimate: 20_000,
      target: 10_000,
    });
    expect(cleared).toBe(5);
    expect(savedTokens).toBeGreaterThan(9_000);
    const stub = JSON.stringify(out[2]);
    expect(stub).toContain(
      '[Old tool result cleared to save context: Safe({\\"file_path\\":\\"/src/f0.ts\\"}) returned 7.8 KB.',
    );
    const path = /saved at (\S+);/.exec((out[2] as { content: Array<{ content: string }> }).content[0]!.content)?.[1];
    expect(path && existsSync(path)).toBe(true);
    expect(readFileSync(path!, "utf8")).toBe("r0:".padEnd(8_000, "x"));
    // The three newest turns are untouched, the history itself is not changed.
    for (const i of [5, 6, 7]) expect(JSON.stringify(out[2 + 2 * i])).toContain(`r${i}:xxx`);
    expect(JSON.stringify(messages[2])).toContain("r0:xxx");
    expect(state.replaced.get("t0")).toContain("[Old tool result cleared");
    expect(state.replaced.has("t5")).toBe(false);
  });
});

describe("microcompact of results that are never saved", () => {
  it("points a Read result back at its call, and journals the stubs so a resumed session sends the same bytes", async () => {
    const sessionDir = await tempSessionDir();
    const state = createToolResultReplacementState();
    const { messages: out } = await microcompact(conversation(5, 8_000, "Read"), {
      state,
      tools: standardTools(new CallLog()),
      sessionDir,
      keepTurns: 1,
      estimate: 20_000,
      target: 0,
    });
    expect(JSON.stringify(out[2])).toContain("Call it again if you need the result.");
    const journal = await readReplacementJournal(sessionDir);
    expect([...journal.keys()]).toEqual(["t0", "t1", "t2", "t3"]);
    expect(journal.get("t0")).toBe(state.replaced.get("t0"));
  });
});

describe("after a compaction", () => {
  it("puts back the summary, the sources' state, recent files and the newest exchange without its usage", () => {
    const files = new ReadFileState();
    files.set("/src/a.ts", { content: "export const a = 1;\n", timestamp: 1 });
    files.set("/src/part.ts", { content: "partial", timestamp: 1, offset: 10, limit: 5 });
    const previous = conversation(3, 100);
    (previous[5] as { usage?: unknown }).usage = { input_tokens: 150_000, output_tokens: 10 };
    const post = postCompactMessages({
      summary: "What happened.",
      continueWork: true,
      reinjected: [{ kind: "todo_reminder", text: "Todo: finish f2." }],
      readFileState: files,
      loadedDeferredTools: ["mcp__gh__search"],
      previous,
      tailMaxTokens: 10_000,
      restoredMaxTokens: 20_000,
    });
    expect(post).toHaveLength(4);
    expect(JSON.stringify(post[0])).toContain("<summary>\\nWhat happened.\\n</summary>");
    const state = JSON.stringify(post[1]);
    expect(state).toContain("Todo: finish f2.");
    expect(state).toContain("mcp__gh__search");
    expect(state).toContain("/src/a.ts (as you last read it)");
    expect(state).not.toContain("/src/part.ts");
    expect(post[2]?.role).toBe("assistant");
    expect((post[2] as { usage?: unknown }).usage).toBeUndefined();
    expect(post[3]).toBe(previous[6]);
  });
});

describe("what a compaction puts back, within its budget", () => {
  const fileOf = (tokens: number, mark: string) => `${mark}\n${"x".repeat(tokens * 4)}\n`;

  it("gives the sources' state first, then the newest files, the last one cut to what is left", () => {
    const files = new ReadFileState();
    files.set("/src/old-small.ts", { content: fileOf(300, "OLD-SMALL"), timestamp: 1 });
    files.set("/src/big.ts", { content: fileOf(9_000, "BIG"), timestamp: 2 });
    files.set("/src/new.ts", { content: fileOf(1_000, "NEW"), timestamp: 3 });
    const post = postCompactMessages({
      summary: "S.",
      continueWork: false,
      reinjected: [{ kind: "todo_reminder", text: "Todo: finish f2." }],
      readFileState: files,
      loadedDeferredTools: [],
      previous: [],
      tailMaxTokens: 0,
      restoredMaxTokens: 2_000,
    });
    const state = JSON.stringify(post[1]);
    expect(state).toContain("Todo: finish f2.");
    expect(state).toContain("NEW");
    // Over the rest of the budget: cut, with a note, rather than the whole 9,000 tokens...
    expect(state).toContain("BIG");
    expect(state).toContain("read it again if you need it");
    // ...and then nothing is left for the oldest.
    expect(state).not.toContain("OLD-SMALL");
    expect(state.length / 4).toBeLessThan(2_000 + 100);
  });

  it("cuts a source's text that alone passes the budget, and leaves files out when nothing is left", () => {
    const files = new ReadFileState();
    files.set("/src/a.ts", { content: fileOf(100, "FILE-A"), timestamp: 1 });
    const post = postCompactMessages({
      summary: "S.",
      continueWork: false,
      reinjected: [{ kind: "nested_memory", text: `MEMORY ${"m".repeat(40_000)}` }],
      readFileState: files,
      loadedDeferredTools: ["mcp__gh__search"],
      previous: [],
      tailMaxTokens: 0,
      restoredMaxTokens: 3_000,
    });
    const state = JSON.stringify(post[1]);
    expect(state).toContain("mcp__gh__search");
    expect(state).toContain("MEMORY");
    expect(state).toContain("cut here to leave room after the summary");
    expect(state).not.toContain("FILE-A");
    expect(state.length / 4).toBeLessThan(3_000 + 100);
  });
});

describe("a summary request refused as too long", () => {
  it("is cut by the provider's own count when its message gives one, and by a quarter at least", async () => {
    const { shrunk } = await import("../../src/context/compact/summarize.js");
    expect(shrunk(100_000, 50_000, "prompt is too long: 250000 tokens > 200000 maximum")).toBe(36_000);
    expect(
      shrunk(
        100_000,
        50_000,
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131000 tokens.",
      ),
    ).toBe(37_500);
    expect(shrunk(20_000, 50_000, "context window exceeded")).toBe(15_000);
  });
});
