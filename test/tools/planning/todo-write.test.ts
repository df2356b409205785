// TodoWrite: the whole list replaced per call, one item in progress at most, kept per agent in
// AppState; allowed without asking, in plan mode too.
import { afterEach, describe, expect, it } from "vitest";
import { MAIN_TODO_LIST } from "../../../src/tool/task-list.js";
import { TodoWriteTool } from "../../../src/tools/todo-write/tool.js";
import { type Harness, makeHarness, schemaProblem } from "./harness.js";

let harness: Harness | undefined;
afterEach(() => harness?.cleanup());

const todo = (content: string, status: string) => ({ content, status, activeForm: `${content}ing` });

describe("TodoWrite", () => {
  it("rejects malformed items with the field that is wrong", () => {
    expect(schemaProblem(TodoWriteTool, { todos: [todo("Read", "pending")] })).toBe("");
    expect(schemaProblem(TodoWriteTool, { todos: [todo("Read", "done")] })).toContain("todos.0.status");
    expect(schemaProblem(TodoWriteTool, { todos: [todo("  ", "pending")] })).toContain("todos.0.content");
    expect(schemaProblem(TodoWriteTool, { todos: [{ content: "Read", status: "pending" }] })).toContain(
      "todos.0.activeForm",
    );
    expect(schemaProblem(TodoWriteTool, { todos: [{ ...todo("Read", "pending"), id: "1" }] })).toContain("id");
    expect(schemaProblem(TodoWriteTool, {})).toContain("todos");
  });

  it("refuses two items in progress, and leaves the list as it was", async () => {
    harness = makeHarness();
    await harness.call(TodoWriteTool, { todos: [todo("Read", "in_progress")] });
    const outcome = await harness.call(TodoWriteTool, {
      todos: [todo("Read", "in_progress"), todo("Fix", "in_progress")],
    });
    expect(outcome.result.is_error).toBe(true);
    expect(outcome.text).toContain("At most one item may be in_progress");
    expect(outcome.text).toContain('"Fix"');
    expect(harness.context.getAppState().todoLists?.[MAIN_TODO_LIST]?.items.map((t) => t.content)).toEqual(["Read"]);
  });

  it("replaces the whole list, bumps its revision and reports the counts", async () => {
    harness = makeHarness();
    const first = await harness.call(TodoWriteTool, {
      todos: [todo("Read", "in_progress"), todo("Fix", "pending"), todo("Test", "pending")],
    });
    expect(first.result.is_error).toBeFalsy();
    expect(first.text).toBe("Task list updated: 0 completed, 1 in progress, 2 pending. Keep it current as you work.");
    await harness.call(TodoWriteTool, { todos: [todo("Read", "completed"), todo("Fix", "in_progress")] });
    const list = harness.context.getAppState().todoLists?.[MAIN_TODO_LIST];
    expect(list?.revision).toBe(2);
    expect(list?.items).toEqual([
      { content: "Read", status: "completed", activeForm: "Reading" },
      { content: "Fix", status: "in_progress", activeForm: "Fixing" },
    ]);
    expect((await harness.call(TodoWriteTool, { todos: [] })).text).toBe("The task list is now empty.");
  });

  it("keeps a subagent's list apart from the main thread's", async () => {
    harness = makeHarness({ agentId: "agent-7" });
    await harness.call(TodoWriteTool, { todos: [todo("Explore", "in_progress")] });
    const lists = harness.context.getAppState().todoLists ?? {};
    expect(Object.keys(lists)).toEqual(["agent-7"]);
  });

  it("runs without asking, in every mode, plan mode included; a deny rule still stops it", async () => {
    for (const mode of ["default", "plan", "dontAsk"] as const) {
      harness = makeHarness({ mode });
      const outcome = await harness.call(TodoWriteTool, { todos: [todo("Read", "pending")] });
      expect(outcome.result.is_error, mode).toBeFalsy();
      expect(harness.asked, mode).toEqual([]);
      harness.cleanup();
    }
    harness = makeHarness({ rules: { deny: ["TodoWrite"] } });
    const denied = await harness.call(TodoWriteTool, { todos: [] });
    expect(denied.result.is_error).toBe(true);
    expect(denied.text).toContain("denied by TodoWrite");
  });
});
