// What the list and plan tools put back when a compaction summarises the conversation away: the
// task list as it stands, and in plan mode the instructions and the plan file's text.
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { EnterPlanModeTool } from "../../../src/tools/enter-plan-mode/tool.js";
import { ExitPlanModeTool } from "../../../src/tools/exit-plan-mode/tool.js";
import { TaskCreateTool } from "../../../src/tools/task-create/tool.js";
import { TaskListTool } from "../../../src/tools/task-list/tool.js";
import { TodoWriteTool } from "../../../src/tools/todo-write/tool.js";
import { type Harness, makeHarness } from "./harness.js";

let harness: Harness | undefined;
afterEach(() => harness?.cleanup());

async function restored(h: Harness, tool: typeof TodoWriteTool | typeof TaskListTool | typeof EnterPlanModeTool) {
  const source = tool.attachments?.[0];
  return source?.afterCompaction?.({ context: h.context, turn: 7, now: new Date() });
}

describe("after a compaction", () => {
  it("the TodoWrite list and the Tasks list come back as they stand", async () => {
    harness = makeHarness();
    expect(await restored(harness, TodoWriteTool)).toBeUndefined();
    await harness.call(TodoWriteTool, {
      todos: [{ content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" }],
    });
    expect(await restored(harness, TodoWriteTool)).toBe("The task list, as it stands:\n1. [in_progress] Fix the bug");
    harness.cleanup();
    harness = makeHarness();
    await harness.call(TaskCreateTool, { subject: "Ship it", description: "" });
    expect(await restored(harness, TaskListTool)).toBe("The task list, as it stands:\n#1 [pending] Ship it");
    // The four Task tools bring one source, asked once per request.
    expect(new Set([TaskCreateTool, TaskListTool].map((tool) => tool.attachments?.[0])).size).toBe(1);
  });

  it("plan mode comes back with its instructions and the plan written so far", async () => {
    harness = makeHarness();
    await harness.call(EnterPlanModeTool, {});
    writeFileSync(harness.planFile, "# Plan\n1. Add the flag\n");
    const text = await restored(harness, EnterPlanModeTool);
    expect(text).toContain("Plan mode is on.");
    expect(text).toContain(`The plan file ${harness.planFile} holds:\n# Plan\n1. Add the flag`);
    expect(ExitPlanModeTool.attachments?.[0]).toBe(EnterPlanModeTool.attachments?.[0]);
  });
});
