// The `todo` event a person's task panel follows: it comes right after the call that changed the
// list, not once every call of the turn has finished.
import { describe, expect, it } from "vitest";
import type { AnyTool } from "../../src/tool/types.js";
import { TodoWriteTool } from "../../src/tools/todo-write/tool.js";
import { collect, EchoTool, sessionFor, tempDir, text, toolUse } from "./helpers.js";

describe("todo events", () => {
  it("follow the TodoWrite result at once, before the later calls of the same message", async () => {
    const cwd = tempDir();
    const todos = [
      { content: "Read the code", activeForm: "Reading the code", status: "in_progress" },
      { content: "Fix the bug", activeForm: "Fixing the bug", status: "pending" },
    ];
    const { session } = sessionFor(
      cwd,
      [
        { content: [toolUse("t1", "TodoWrite", { todos }), toolUse("t2", "Echo", { text: "after" })] },
        { content: [text("done")] },
      ],
      { tools: [TodoWriteTool, EchoTool] as AnyTool[] },
    );
    const { events } = await collect(session.submitMessage("go"));
    const order = events
      .filter((e) => e.type === "tool_result" || e.type === "todo")
      .map((e) => (e.type === "tool_result" ? `result ${e.toolUse.id}` : "todo"));
    expect(order).toEqual(["result t1", "todo", "result t2"]);
    const list = events.find((e) => e.type === "todo");
    expect(list?.type === "todo" && list.list.items.map((i) => i.content)).toEqual(["Read the code", "Fix the bug"]);
  });
});
