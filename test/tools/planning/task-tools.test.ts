// The Tasks family: TaskCreate / TaskGet / TaskUpdate / TaskList over the file-backed list, its
// dependencies kept on both ends, `deleted` removing a task, and one list shared by processes.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileTaskStore, sessionTaskListDir } from "../../../src/session/task-store.js";
import { currentTaskList } from "../../../src/tool/task-list.js";
import { TaskCreateTool } from "../../../src/tools/task-create/tool.js";
import { TaskGetTool } from "../../../src/tools/task-get/tool.js";
import { TaskListTool } from "../../../src/tools/task-list/tool.js";
import { TaskUpdateTool } from "../../../src/tools/task-update/tool.js";
import { builtFixture } from "../../helpers/built.js";
import { type Harness, makeHarness, schemaProblem } from "./harness.js";

let harness: Harness | undefined;
afterEach(() => harness?.cleanup());

async function create(h: Harness, subject: string) {
  const outcome = await h.call(TaskCreateTool, { subject, description: `Do ${subject}` });
  expect(outcome.result.is_error, outcome.text).toBeFalsy();
  return outcome.text.match(/^Task #(\d+) created/)?.[1] ?? "";
}

describe("the Task tools' schemas", () => {
  it("name the field that is wrong", () => {
    expect(schemaProblem(TaskCreateTool, { subject: "A", description: "" })).toBe("");
    expect(schemaProblem(TaskCreateTool, { subject: "", description: "x" })).toContain("subject");
    expect(schemaProblem(TaskCreateTool, { subject: "A" })).toContain("description");
    expect(schemaProblem(TaskGetTool, {})).toContain("taskId");
    expect(schemaProblem(TaskUpdateTool, { taskId: "1", status: "done" })).toContain("status");
    expect(schemaProblem(TaskUpdateTool, { taskId: "1", addBlocks: "2" })).toContain("addBlocks");
    expect(schemaProblem(TaskListTool, { all: true })).toContain("all");
  });
});

describe("the Task tools", () => {
  it("create, list, show and update tasks in the session's own folder", async () => {
    harness = makeHarness();
    expect((await harness.call(TaskListTool, {})).text).toBe("No tasks yet. Add them with TaskCreate.");
    expect(await create(harness, "Read the code")).toBe("1");
    expect(await create(harness, "Fix the bug")).toBe("2");
    const started = await harness.call(TaskUpdateTool, { taskId: "1", status: "in_progress", owner: "lead" });
    expect(started.text).toBe("Task #1 updated: status pending → in_progress; owner.");
    expect((await harness.call(TaskListTool, {})).text).toBe(
      "#1 [in_progress] Read the code (owner: lead)\n#2 [pending] Fix the bug",
    );
    const shown = await harness.call(TaskGetTool, { taskId: "2" });
    expect(shown.text).toContain("Task #2: Fix the bug\nStatus: pending");
    expect(shown.text).toContain("Do Fix the bug");
    // The list is files in the session's folder: what --resume and a team read.
    expect(readdirSync(sessionTaskListDir(harness.sessionDir)).sort()).toEqual(["1.json", "2.json", "meta.json"]);
  });

  it("keeps dependencies on both ends, and removes them with a deleted task", async () => {
    harness = makeHarness();
    for (const subject of ["Design", "Build", "Ship"]) await create(harness, subject);
    expect((await harness.call(TaskUpdateTool, { taskId: "2", addBlockedBy: ["1"], addBlocks: ["3"] })).text).toBe(
      "Task #2 updated: blocks #3; blocked by #1.",
    );
    const store = new FileTaskStore(sessionTaskListDir(harness.sessionDir));
    expect(store.get("1")?.blocks).toEqual(["2"]);
    expect(store.get("3")?.blockedBy).toEqual(["2"]);
    expect((await harness.call(TaskUpdateTool, { taskId: "2", status: "deleted" })).text).toBe("Task #2 deleted.");
    expect(store.get("2")).toBeUndefined();
    expect(store.get("1")?.blocks).toEqual([]);
    expect(store.get("3")?.blockedBy).toEqual([]);
    expect((await harness.call(TaskListTool, {})).text).toBe("#1 [pending] Design\n#3 [pending] Ship");
  });

  it("a task whose blocker is completed shows as blocked nowhere: TaskList, TaskGet, the list snapshot", async () => {
    harness = makeHarness();
    for (const subject of ["Design", "Build", "Test"]) await create(harness, subject);
    await harness.call(TaskUpdateTool, { taskId: "3", addBlockedBy: ["1", "2"] });
    expect((await harness.call(TaskListTool, {})).text).toContain("#3 [pending] Test (blocked by #1, #2)");
    await harness.call(TaskUpdateTool, { taskId: "1", status: "completed" });
    expect((await harness.call(TaskListTool, {})).text).toContain("#3 [pending] Test (blocked by #2)");
    await harness.call(TaskUpdateTool, { taskId: "2", status: "completed" });
    expect((await harness.call(TaskListTool, {})).text).toMatch(/^#3 \[pending\] Test$/m);
    const shown = (await harness.call(TaskGetTool, { taskId: "3" })).text;
    expect(shown).not.toContain("Blocked by:");
    expect(shown).toContain("Was blocked by (completed): #1, #2");
    const snapshot = currentTaskList(harness.context.getAppState());
    expect(snapshot?.items.find((item) => item.id === "3")?.blockedBy).toBeUndefined();
    // Reopening a blocker blocks again.
    await harness.call(TaskUpdateTool, { taskId: "2", status: "in_progress" });
    expect((await harness.call(TaskListTool, {})).text).toContain("#3 [pending] Test (blocked by #2)");
  });

  it("merges metadata, a null value removing its key", async () => {
    harness = makeHarness();
    await harness.call(TaskCreateTool, { subject: "A", description: "", metadata: { area: "ui", size: 3 } });
    await harness.call(TaskUpdateTool, { taskId: "1", metadata: { size: null, risk: "low" } });
    expect(new FileTaskStore(sessionTaskListDir(harness.sessionDir)).get("1")?.metadata).toEqual({
      area: "ui",
      risk: "low",
    });
  });

  it("refuses unknown ids and self-dependencies with a message naming the tasks there are", async () => {
    harness = makeHarness();
    await create(harness, "Only task");
    const missing = await harness.call(TaskGetTool, { taskId: "9" });
    expect(missing.result.is_error).toBe(true);
    expect(missing.text).toBe("There is no task #9. Existing tasks: #1. Use TaskList to see the list.");
    const pathLike = await harness.call(TaskUpdateTool, { taskId: "../../etc/passwd", status: "completed" });
    expect(pathLike.text).toContain("There is no task #../../etc/passwd.");
    const self = await harness.call(TaskUpdateTool, { taskId: "1", addBlocks: ["1"] });
    expect(self.text).toBe("Task #1 cannot block or wait for itself.");
    const unknownDependency = await harness.call(TaskUpdateTool, { taskId: "1", addBlockedBy: ["4"] });
    expect(unknownDependency.text).toContain("There is no task #4.");
  });

  it("gives a teammate that starts an unowned task its ownership", async () => {
    harness = makeHarness({ agentId: "tester" });
    await create(harness, "Run the suite");
    await harness.call(TaskUpdateTool, { taskId: "1", status: "in_progress" });
    expect(new FileTaskStore(sessionTaskListDir(harness.sessionDir)).get("1")?.owner).toBe("tester");
  });

  it("run without asking, in plan mode too; TaskGet and TaskList may run beside other calls", async () => {
    harness = makeHarness({ mode: "plan" });
    await create(harness, "Plan it");
    expect((await harness.call(TaskUpdateTool, { taskId: "1", status: "completed" })).result.is_error).toBeFalsy();
    expect(harness.asked).toEqual([]);
    expect(TaskGetTool.isConcurrencySafe({ taskId: "1" })).toBe(true);
    expect(TaskListTool.isConcurrencySafe({})).toBe(true);
    expect(TaskUpdateTool.isConcurrencySafe({ taskId: "1" })).toBe(false);
    for (const tool of [TaskCreateTool, TaskGetTool, TaskUpdateTool, TaskListTool]) expect(tool.shouldDefer).toBe(true);
  });
});

describe("one list shared by a team", () => {
  it("loses no task when two processes add to the same folder at once", async () => {
    harness = makeHarness();
    const folder = join(harness.root, "team", "tasks");
    const member = (who: string) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [builtFixture("tools/planning/fixtures/create-tasks.ts"), folder, who, "25"],
          { stdio: "inherit" },
        );
        child.on("error", reject);
        child.on("close", resolve);
      });
    expect(await Promise.all([member("ana"), member("bo")])).toEqual([0, 0]);
    const store = new FileTaskStore(folder);
    const tasks = store.list();
    expect(tasks.map((t) => t.id)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 1)));
    expect(tasks.filter((t) => t.subject.startsWith("ana")).length).toBe(25);
    expect(store.revision()).toBe(50);
  }, 30_000);

  it("sees a change another store object made (the revision is on disk, not in memory)", () => {
    harness = makeHarness();
    const folder = join(harness.root, "shared");
    const lead = new FileTaskStore(folder);
    const teammate = new FileTaskStore(folder);
    lead.create({ subject: "A", description: "" });
    expect(lead.list().map((t) => t.status)).toEqual(["pending"]);
    teammate.update("1", { status: "completed" });
    expect(lead.revision()).toBe(2);
    expect(lead.list().map((t) => t.status)).toEqual(["completed"]);
  });
});
