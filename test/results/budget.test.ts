import { appendFile, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message, UserMessage } from "../../src/messages/types.js";
import { applyToolResultBudget, budgetRequestMessages } from "../../src/results/budget.js";
import { replacementJournalPath } from "../../src/results/replacement-journal.js";
import { createToolResultReplacementState, toolResultReplacementStateOf } from "../../src/results/replacement-state.js";
import { CallLog, makeContext, standardTools, tempSessionDir, textOfResult } from "../orchestration/fixtures.js";

const tools = standardTools(new CallLog());

/** One assistant turn calling `toolName` per size, and the user message carrying the results. */
function turn(prefix: string, calls: Array<{ tool: string; size: number }>): [AssistantMessage, UserMessage] {
  const assistant: AssistantMessage = {
    role: "assistant",
    content: calls.map((c, i) => ({ type: "tool_use", id: `${prefix}${i}`, name: c.tool, input: {} })),
  };
  const user: UserMessage = {
    role: "user",
    content: calls.map((c, i) => ({
      type: "tool_result",
      tool_use_id: `${prefix}${i}`,
      content: `${prefix}${i}:`.padEnd(c.size, "r"),
    })),
  };
  return [assistant, user];
}

function resultTexts(messages: Message[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of messages)
    for (const b of m.content) if (b.type === "tool_result") out[b.tool_use_id] = textOfResult(b);
  return out;
}

describe("per-message budget", () => {
  it("persists the largest result first, and only as many as needed to fit 200,000", async () => {
    const sessionDir = await tempSessionDir();
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      ...turn("a", [
        { tool: "Safe", size: 45_000 },
        { tool: "Safe", size: 49_000 },
        { tool: "Safe", size: 47_000 },
        { tool: "Safe", size: 46_000 },
        { tool: "Safe", size: 30_000 },
      ]),
    ];
    // 217,000 in all: persisting the 49,000 one alone brings it under.
    const state = createToolResultReplacementState();
    const sent = await applyToolResultBudget(history, { state, tools, sessionDir });
    const texts = resultTexts(sent);
    expect(texts.a1!.startsWith("<persisted-output>")).toBe(true);
    for (const id of ["a0", "a2", "a3", "a4"]) expect(texts[id]!.startsWith(`${id}:`)).toBe(true);
    expect(await readFile(join(sessionDir, "tool-results", "a1.txt"), "utf8")).toBe("a1:".padEnd(49_000, "r"));
    // History itself is untouched.
    expect(resultTexts(history).a1!.length).toBe(49_000);
  });

  it("goes on to the next largest until the message fits", async () => {
    const sessionDir = await tempSessionDir();
    const history = turn(
      "b",
      Array.from({ length: 8 }, (_, i) => ({ tool: "Safe", size: 40_000 + i * 1_000 })),
    );
    // 8 results, 348,000 in all: the four largest (47k, 46k, 45k, 44k) must go.
    const sent = await applyToolResultBudget(history, { state: createToolResultReplacementState(), tools, sessionDir });
    const persisted = Object.entries(resultTexts(sent))
      .filter(([, text]) => text.startsWith("<persisted-output>"))
      .map(([id]) => id);
    expect(persisted.sort()).toEqual(["b4", "b5", "b6", "b7"]);
    const total = Object.values(resultTexts(sent)).reduce((sum, t) => sum + t.length, 0);
    expect(total).toBeLessThanOrEqual(200_000);
  });

  it("never persists Read results, even when they are the largest", async () => {
    const sessionDir = await tempSessionDir();
    const history = turn("c", [
      { tool: "Read", size: 150_000 },
      { tool: "Safe", size: 40_000 },
      { tool: "Safe", size: 30_000 },
    ]);
    const texts = resultTexts(
      await applyToolResultBudget(history, { state: createToolResultReplacementState(), tools, sessionDir }),
    );
    expect(texts.c0!.length).toBe(150_000);
    expect(texts.c1!.startsWith("<persisted-output>")).toBe(true);
    expect(texts.c2!.startsWith("c2:")).toBe(true);
  });

  it("leaves messages under budget as the very same objects", async () => {
    const history = turn("d", [{ tool: "Safe", size: 1_000 }]);
    const sent = await applyToolResultBudget(history, {
      state: createToolResultReplacementState(),
      tools,
      sessionDir: await tempSessionDir(),
    });
    expect(sent[1]).toBe(history[1]);
  });
});

describe("frozen decisions", () => {
  it("re-sends a replaced result byte for byte without touching the disk again", async () => {
    const sessionDir = await tempSessionDir();
    const state = createToolResultReplacementState();
    const history: Message[] = [
      ...turn("e", [
        { tool: "Safe", size: 49_000 },
        { tool: "Safe", size: 48_000 },
        { tool: "Safe", size: 47_000 },
        { tool: "Safe", size: 46_000 },
        { tool: "Safe", size: 45_000 },
      ]),
    ];
    const first = await applyToolResultBudget(history, { state, tools, sessionDir });
    // Even with the saved file gone, the next turn sends exactly what the first one sent.
    await rm(join(sessionDir, "tool-results"), { recursive: true });
    history.push(
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
      { role: "user", content: [{ type: "text", text: "more" }] },
    );
    const second = await applyToolResultBudget(history, { state, tools, sessionDir });
    expect(JSON.stringify(second.slice(0, first.length))).toBe(JSON.stringify(first));
  });

  it("keeps a kept result whole on later turns, even if the budget would now pick it", async () => {
    const sessionDir = await tempSessionDir();
    const state = createToolResultReplacementState();
    const history = turn("f", [
      { tool: "Safe", size: 40_000 },
      { tool: "Safe", size: 30_000 },
    ]);
    const first = await applyToolResultBudget(history, { state, tools, sessionDir, maxCharsPerMessage: 100_000 });
    // A smaller budget later must not flip a decision already sent (it would break the cache).
    const second = await applyToolResultBudget(history, { state, tools, sessionDir, maxCharsPerMessage: 10_000 });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    // A fresh session (no decisions yet) would have replaced it: the state is what kept it.
    const fresh = await applyToolResultBudget(history, {
      state: createToolResultReplacementState(),
      tools,
      sessionDir,
      maxCharsPerMessage: 10_000,
    });
    expect(JSON.stringify(fresh)).not.toBe(JSON.stringify(first));
  });

  it("lives in AppState, one per session", () => {
    const context = makeContext(tools, "/tmp");
    const state = toolResultReplacementStateOf(context);
    expect(toolResultReplacementStateOf(context)).toBe(state);
    expect(context.getAppState().toolResultReplacements).toBe(state);
  });
});

describe("decisions survive a resume", () => {
  it("a resumed session re-sends a replacement byte for byte, even after its saved file changed", async () => {
    const sessionDir = await tempSessionDir();
    const history = turn(
      "g",
      [49_000, 48_000, 47_000, 46_000, 45_000].map((size) => ({ tool: "Safe", size })),
    );
    const before = await budgetRequestMessages(history, makeContext(tools, sessionDir));
    const savedPath = join(sessionDir, "tool-results", "g0.txt");
    expect(resultTexts(before).g0).toContain(savedPath);
    // Something overwrote the saved file, and a torn line was left in the journal by a crash.
    await writeFile(savedPath, "overwritten meanwhile");
    await appendFile(replacementJournalPath(sessionDir), '{"toolUseId":"g1","cont');

    // New process, new AppState, same session folder.
    const after = await budgetRequestMessages(history, makeContext(tools, sessionDir));
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    // Without the journal the decision would be taken again, under another file name.
    const redecided = await applyToolResultBudget(history, {
      state: createToolResultReplacementState(),
      tools,
      sessionDir,
    });
    expect(JSON.stringify(redecided)).not.toBe(JSON.stringify(before));
    expect(resultTexts(redecided).g0).toContain(join(sessionDir, "tool-results", "g0-2.txt"));
  });
});
