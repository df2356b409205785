// The transcript model fed the loop's events as they come: what is finished (written once, in the
// order of the conversation) and what still runs.
import { describe, expect, it } from "vitest";
import type { QueryEvent } from "../../src/loop/events.js";
import type { AssistantMessage, Message, ToolResultBlock, ToolUseBlock } from "../../src/messages/types.js";
import { askingAgentLabel } from "../../src/ui/transcript/tool-summary.js";
import { type TranscriptItem, TranscriptModel } from "../../src/ui/transcript/transcript-model.js";

const use = (id: string, command: string): ToolUseBlock => ({ type: "tool_use", id, name: "Bash", input: { command } });
const result = (id: string, content: string, isError = false): ToolResultBlock => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  ...(isError && { is_error: true }),
});

function shown(items: readonly TranscriptItem[]): string[] {
  return items.map((item) =>
    item.kind === "tool" ? `tool ${item.summary} → ${item.result.lines.join(" | ")}` : `${item.kind} ${item.text}`,
  );
}

describe("TranscriptModel", () => {
  it("shows a call that finished while the model still wrote after the text of its own message, and not as running", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const call = use("r1", "ls");
    model.apply({ type: "text_delta", text: "Let me look at the files." });
    // A read-only call runs as soon as its block is complete: its result comes before the message.
    model.apply({ type: "tool_result", toolUse: call, result: result("r1", "a.ts\nb.ts") });
    expect(shown(model.items)).toEqual([]);
    model.apply({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: "Let me look at the files." }, call] },
    });
    expect(shown(model.items)).toEqual(["assistant Let me look at the files.", "tool Bash(ls) → a.ts | b.ts"]);
    expect(model.running.size).toBe(0);
  });

  it("a call that finishes after its message leaves the running list at once", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const slow = use("s1", "npm test");
    const other = use("s2", "sleep 10");
    model.apply({ type: "assistant", message: { role: "assistant", content: [slow, other] } });
    expect([...model.running.keys()]).toEqual(["s1", "s2"]);
    model.apply({ type: "tool_result", toolUse: slow, result: result("s1", "ok") });
    expect([...model.running.keys()]).toEqual(["s2"]);
  });

  it("a command stopped by ESC keeps the output it had shown, and calls cut off mid-stream still get a line", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const call = use("b1", "make");
    model.apply({ type: "assistant", message: { role: "assistant", content: [call] } });
    model.apply({
      type: "tool_progress",
      toolUseId: "b1",
      toolName: "Bash",
      progress: { output: "cc a.c\ncc b.c", totalLines: 2, elapsedMs: 3000 },
    });
    // The loop's interrupted result carries the output, and is given as a message only (no event).
    const interrupted = result(
      "b1",
      "Interrupted by the user: the tool call was cancelled before it finished.\nOutput before it was stopped:\ncc a.c\ncc b.c",
      true,
    );
    model.apply({ type: "user", message: { role: "user", content: [interrupted] } } as QueryEvent);
    expect(model.running.size).toBe(0);
    const [item] = model.items;
    expect(item?.kind === "tool" && item.result.lines).toEqual([
      "Interrupted by the user: the tool call was cancelled before it finished.",
      "Output before it was stopped:",
      "cc a.c",
      "cc b.c",
    ]);
  });

  it("shows a resumed conversation without its compaction summary or harness messages as prompts", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const history: Message[] = [
      {
        role: "user",
        content: [{ type: "text", text: "This session is being continued from a previous conversation. Summary: ..." }],
        isMeta: true,
        attachment: "compact_summary",
      },
      {
        role: "user",
        content: [{ type: "text", text: "Files you read most recently: ..." }],
        isMeta: true,
        attachment: "compact_reinjection",
      },
      { role: "user", content: [{ type: "text", text: "fix the tests" }] },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
      { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
    ];
    model.showHistory(history);
    expect(shown(model.items)).toEqual([
      "notice (earlier messages were compacted into a summary for the model)",
      "user fix the tests",
      "assistant Done.",
      "notice [Request interrupted by user]",
    ]);
  });

  it("shows a resumed edit as it was shown live: its diff, not the text written for the model", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const edit: ToolUseBlock = {
      type: "tool_use",
      id: "e1",
      name: "Edit",
      input: { file_path: "/tmp/none/sum.js", old_string: "return a - b;", new_string: "return a + b;" },
    };
    model.showHistory([
      { role: "assistant", content: [edit] },
      { role: "user", content: [result("e1", "The file /tmp/none/sum.js has been updated. Changes:\n@@ -1 +1 @@")] },
    ]);
    const [item] = model.items;
    expect(item?.kind === "tool" && item.edit).toEqual({
      oldText: "return a - b;",
      newText: "return a + b;",
      firstLine: 1,
    });
  });
});

describe("TodoWrite in the transcript", () => {
  it("reads as a checklist, not as the call's JSON", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const call: ToolUseBlock = {
      type: "tool_use",
      id: "w1",
      name: "TodoWrite",
      input: {
        todos: [
          { content: "Read the code", activeForm: "Reading", status: "completed" },
          { content: "Fix the bug", activeForm: "Fixing", status: "in_progress" },
          { content: "Run the tests", activeForm: "Running", status: "pending" },
        ],
      },
    };
    model.apply({ type: "assistant", message: { role: "assistant", content: [call] } });
    expect(model.running.get("w1")?.summary).toBe("Update Todos");
    model.apply({ type: "tool_result", toolUse: call, result: result("w1", "Task list updated: 1 completed") });
    expect(shown(model.items)).toEqual(["tool Update Todos → ☒ Read the code | ◼ Fix the bug | ☐ Run the tests"]);
    expect(JSON.stringify(model.items)).not.toContain("activeForm");
    // The panel shows the new list at once, before the turn's other calls end.
    expect(model.todo?.items.map((i) => `${i.status} ${i.activeForm}`)).toEqual([
      "completed Reading",
      "in_progress Fixing",
      "pending Running",
    ]);
  });
});

describe("a subagent in the transcript", () => {
  it("is named by its type and description, not by its prompt or id", () => {
    const model = new TranscriptModel(() => [], "/tmp");
    const call: ToolUseBlock = {
      type: "tool_use",
      id: "a1",
      name: "Agent",
      input: { description: "Find the parser tests", subagent_type: "Explore", prompt: "Look through test/ for..." },
    };
    model.apply({ type: "assistant", message: { role: "assistant", content: [call] } });
    expect(model.running.get("a1")?.summary).toBe("Explore(Find the parser tests)");
    expect(askingAgentLabel("agent:Explore", "agent-7f3a")).toBe("The Explore agent");
    expect(askingAgentLabel(undefined, undefined)).toBeUndefined();
  });
});

describe("what a finished read-only call shows", () => {
  it("a shell command's output by its first lines, a Read's as a count", async () => {
    const { builtInTools } = await import("../../src/tools/registry.js");
    const { loadShellParser } = await import("../../src/shell/parse/index.js");
    // Bash judges `ls` read-only once the grammar is loaded (before, it fails closed: not read-only).
    await loadShellParser();
    const tools = builtInTools();
    const model = new TranscriptModel(() => tools, "/tmp");
    const listing = use("b1", "ls");
    const read: ToolUseBlock = { type: "tool_use", id: "r1", name: "Read", input: { file_path: "/tmp/notes.txt" } };
    model.apply({
      type: "assistant",
      message: { role: "assistant", content: [listing, read] },
    });
    model.apply({ type: "tool_result", toolUse: listing, result: result("b1", "a.ts\nb.ts\nc.ts") });
    model.apply({ type: "tool_result", toolUse: read, result: result("r1", "1\tone\n2\ttwo") });
    expect(shown(model.items)).toEqual([
      "tool Bash(ls) → a.ts | b.ts | c.ts",
      expect.stringMatching(/^tool Read\(.*\) → 2 lines$/),
    ]);
  });

  it("shows a Stop hook's feedback as a notice between the answers, live and in a resumed conversation", () => {
    const answer = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }] });
    const live = new TranscriptModel(() => [], "/tmp");
    live.apply({ type: "assistant", message: answer("All done.") });
    live.apply({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "text", text: "A Stop hook asked you to continue: run the tests" }],
        isMeta: true,
        attachment: "stop_hook_feedback",
      },
    });
    live.apply({ type: "assistant", message: answer("Tests pass.") });
    const expected = [
      "assistant All done.",
      "notice A Stop hook asked you to continue: run the tests",
      "assistant Tests pass.",
    ];
    expect(shown(live.items)).toEqual(expected);

    // The transcript keeps the feedback as a plain user message: not shown as if the person typed it.
    const resumed = new TranscriptModel(() => [], "/tmp");
    resumed.showHistory([
      answer("All done."),
      { role: "user", content: [{ type: "text", text: "A Stop hook asked you to continue: run the tests" }] },
      answer("Tests pass."),
    ]);
    expect(shown(resumed.items)).toEqual(expected);
  });
});
