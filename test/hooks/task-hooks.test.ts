// TaskCreated and TaskCompleted hooks, through the real Task tools and permission engine: a
// refusal takes the new task off the list again, or leaves the task open, with the hook's reason.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { sessionTaskStore } from "../../src/session/task-store.js";
import { TaskCreateTool } from "../../src/tools/task-create/tool.js";
import { TaskUpdateTool } from "../../src/tools/task-update/tool.js";
import { type Harness, makeHarness } from "../tools/planning/harness.js";

let harness: Harness | undefined;
afterEach(() => {
  harness?.cleanup();
  harness = undefined;
});

/** A harness whose session runs `body` as the hook of `event` (its stdin saved to `<event>.json`). */
function withHook(event: "TaskCreated" | "TaskCompleted", body: string): Harness {
  const h = makeHarness({ mode: "acceptEdits" });
  harness = h;
  const script = join(h.root, `${event}.sh`);
  writeFileSync(script, `#!/usr/bin/env bash\ncat > '${join(h.root, `${event}.json`)}'\n${body}\n`);
  chmodSync(script, 0o755);
  const hooks = new HookRunner({
    config: { [event]: [{ hooks: [{ type: "command", command: script }] }] },
    cwd: h.project,
    sessionId: "s-tasks",
  });
  h.context.setAppState((prev) => ({ ...prev, hooks }));
  return h;
}

const inputOf = (h: Harness, event: string) => JSON.parse(readFileSync(join(h.root, `${event}.json`), "utf8"));

describe("TaskCreated", () => {
  it("a refusal takes the task off the list, and the model reads why", async () => {
    const h = withHook("TaskCreated", "echo 'tasks need an issue number' >&2; exit 2");
    const result = await h.call(TaskCreateTool, { subject: "Fix login", description: "the form" });
    expect(result.text).toContain("tasks need an issue number");
    expect(sessionTaskStore(h.context).list()).toEqual([]);
    expect(inputOf(h, "TaskCreated")).toMatchObject({
      hook_event_name: "TaskCreated",
      task_subject: "Fix login",
      task_description: "the form",
    });
  });

  it("a hook that says nothing keeps the task", async () => {
    const h = withHook("TaskCreated", "true");
    await h.call(TaskCreateTool, { subject: "Fix login", description: "the form" });
    expect(
      sessionTaskStore(h.context)
        .list()
        .map((t) => t.subject),
    ).toEqual(["Fix login"]);
  });
});

describe("TaskCompleted", () => {
  it("a refusal leaves the task open, with the reason", async () => {
    const h = withHook("TaskCompleted", `echo '{"decision":"block","reason":"the tests fail"}'`);
    await h.call(TaskCreateTool, { subject: "Fix login", description: "the form" });
    const [task] = sessionTaskStore(h.context).list();
    const result = await h.call(TaskUpdateTool, { taskId: task?.id, status: "completed" });
    expect(result.text).toContain("the tests fail");
    expect(sessionTaskStore(h.context).get(task?.id ?? "")?.status).toBe("pending");
    expect(inputOf(h, "TaskCompleted")).toMatchObject({ hook_event_name: "TaskCompleted", task_id: task?.id });
  });
});
