import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isProcessAlive } from "../../../src/process/process-group.js";
import { createSession, type Session, text } from "./harness.js";

let session: Session;
beforeEach(() => {
  session = createSession();
});
afterEach(async () => {
  await session.cleanup();
});

function firstNumber(output: string): number {
  const match = /(\d+)/.exec(output);
  if (!match) throw new Error(`no pid in output: ${output}`);
  return Number(match[1]);
}

// A command that starts a grandchild (sleep, in the background of an inner shell that ignores
// SIGTERM, so only SIGKILL to the whole group ends it), prints its pid and waits.
const STUBBORN_GRANDCHILD = `bash -c 'trap "" TERM; sleep 300 & echo $!; wait'; echo unreachable`;

describe("Bash: timeout and abort", () => {
  it("on timeout kills the whole process group, leaving no orphan", async () => {
    const result = await session.run("Bash", { command: STUBBORN_GRANDCHILD, timeout: 1500 });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("Command timed out after 1.5 s");
    expect(text(result)).not.toContain("unreachable");
    const grandchild = firstNumber(text(result));
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it("on abort kills the whole process group and reports the interruption", async () => {
    const controller = new AbortController();
    const context = { ...session.context, abortController: controller };
    // Abort from the first progress report (at 2 s), once the grandchild has printed its pid.
    const pending = session.runWith(context, "Bash", { command: STUBBORN_GRANDCHILD }, (progress) => {
      if (/\d+/.test((progress as { output: string }).output)) controller.abort();
    });
    const result = await pending;
    expect(result.is_error).toBe(true);
    const shown = text(result);
    expect(shown).toMatch(/interrupted/i);
    const grandchild = firstNumber(shown);
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it("rejects a timeout above the maximum with the limit in the message", async () => {
    const result = await session.run("Bash", { command: "true", timeout: 10_000_000 });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("above the maximum of 600000 ms");
  });

  it("rejects bad input with a message naming the field", async () => {
    const result = await session.run("Bash", { command: 42 });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("command");
    const extra = await session.run("Bash", { command: "true", shell: "zsh" });
    expect(extra.is_error).toBe(true);
  });
});

describe("Bash: sleep guard", () => {
  it("refuses a leading sleep of 2 s or more with advice", async () => {
    for (const command of ["sleep 5", "sleep 2 && curl localhost:3000", "  sleep 10; echo done"]) {
      const result = await session.run("Bash", { command });
      expect(result.is_error, command).toBe(true);
      expect(text(result), command).toContain("run_in_background");
    }
  });

  it("lets short sleeps, later sleeps and background sleeps run", async () => {
    expect(text(await session.run("Bash", { command: "sleep 0.1 && echo ok" }))).toBe("ok");
    expect(text(await session.run("Bash", { command: "echo a && sleep 0 && echo b" }))).toBe("a\nb");
    const background = await session.run("Bash", { command: "sleep 5", run_in_background: true });
    expect(background.is_error).toBeUndefined();
    expect(text(background)).toContain("task id");
  });
});

describe("Background tasks", () => {
  it("returns a task id at once and notifies the model when the task ends", async () => {
    const started = await session.run("Bash", {
      command: "echo begin; sleep 1; echo finish",
      run_in_background: true,
      description: "Print two lines",
    });
    const id = /task id (\w+)/.exec(text(started))?.[1] ?? "missing";
    expect(session.context.getAppState().backgroundTasks?.get(id)?.status).toBe("running");
    expect(session.context.channels.reminders.peek()).toHaveLength(0);

    await session.context.getAppState().backgroundTasks?.waitFor(id, 20_000);
    const reminders = session.context.channels.reminders.peek();
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toContain(`Background task ${id}`);
    expect(reminders[0]).toContain("completed with exit code 0");
    expect(reminders[0]).toContain("Print two lines");
  });

  it("TaskOutput peeks without waiting, waits for the end, and then withdraws the redundant notice", async () => {
    const started = await session.run("Bash", { command: "echo begin; sleep 1; echo finish", run_in_background: true });
    const id = /task id (\w+)/.exec(text(started))?.[1];

    const peek = await session.run("TaskOutput", { task_id: id, block: false });
    expect(text(peek)).toContain("<status>running</status>");

    const done = await session.run("TaskOutput", { task_id: id, timeout: 20_000 });
    expect(text(done)).toContain("<status>completed</status>");
    expect(text(done)).toContain("<exit_code>0</exit_code>");
    expect(text(done)).toContain("begin\nfinish");
    expect(session.context.channels.reminders.peek()).toHaveLength(0);
  });

  it("reports a task still running when the wait times out", async () => {
    const started = await session.run("Bash", { command: "echo tick; sleep 30", run_in_background: true });
    const id = /task id (\w+)/.exec(text(started))?.[1];
    const result = await session.run("TaskOutput", { task_id: id, timeout: 300 });
    expect(text(result)).toContain("<status>running</status>");
    expect(text(result)).toContain("the wait timed out");
  });

  it("TaskStop (and its alias KillShell) ends the task's whole process group without a notification", async () => {
    const started = await session.run("Bash", { command: STUBBORN_GRANDCHILD, run_in_background: true });
    const id = /task id (\w+)/.exec(text(started))?.[1] ?? "missing";
    const registry = session.context.getAppState().backgroundTasks!;
    let grandchild = 0;
    for (let i = 0; i < 200 && !grandchild; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const output = text(await session.run("TaskOutput", { task_id: id, block: false }));
      const pid = /<output>\n(\d+)/.exec(output)?.[1];
      if (pid) grandchild = Number(pid);
    }
    expect(grandchild).toBeGreaterThan(0);
    expect(isProcessAlive(grandchild)).toBe(true);

    const stopped = await session.run("KillShell", { shell_id: id });
    expect(text(stopped)).toContain(`Stopped background task ${id}`);
    expect(registry.get(id)?.status).toBe("killed");
    expect(isProcessAlive(grandchild)).toBe(false);
    expect(session.context.channels.reminders.peek()).toHaveLength(0);

    const again = await session.run("TaskStop", { task_id: id });
    expect(text(again)).toContain("had already ended");
  });

  it("reports a failing background command as failed in its notification", async () => {
    const started = await session.run("Bash", { command: "echo oops >&2; exit 7", run_in_background: true });
    const id = /task id (\w+)/.exec(text(started))?.[1] ?? "missing";
    await session.context.getAppState().backgroundTasks?.waitFor(id, 20_000);
    expect(session.context.channels.reminders.peek()[0]).toContain("failed with exit code 7");
    const done = await session.run("TaskOutput", { task_id: id });
    expect(text(done)).toContain("<status>failed</status>");
    expect(text(done)).toContain("oops");
  });

  it("kills a task whose output passes the size limit", async () => {
    process.env.WARDEN_TASK_OUTPUT_LIMIT_BYTES = "200000";
    try {
      const started = await session.run("Bash", { command: "yes", run_in_background: true });
      const id = /task id (\w+)/.exec(text(started))?.[1] ?? "missing";
      const task = await session.context.getAppState().backgroundTasks?.waitFor(id, 20_000);
      expect(task?.status).toBe("failed");
      expect(task?.outputLimitExceeded).toBe(true);
      expect(session.context.channels.reminders.peek()[0]).toContain("output passed the size limit");
    } finally {
      delete process.env.WARDEN_TASK_OUTPUT_LIMIT_BYTES;
    }
  });

  it("answers an unknown task id with the known ids", async () => {
    const started = await session.run("Bash", { command: "true", run_in_background: true });
    const id = /task id (\w+)/.exec(text(started))?.[1];
    const result = await session.run("TaskOutput", { task_id: "nope" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain(`No background task with id "nope". Known tasks: ${id}`);
    const stop = await session.run("TaskStop", {});
    expect(stop.is_error).toBe(true);
    expect(text(stop)).toContain("task_id");
  });

  it("does not let a background command's cd move the session's shell", async () => {
    await session.run("Bash", { command: "mkdir elsewhere" });
    const started = await session.run("Bash", { command: "cd elsewhere && pwd", run_in_background: true });
    const id = /task id (\w+)/.exec(text(started))?.[1];
    await session.run("TaskOutput", { task_id: id });
    expect(text(await session.run("Bash", { command: "pwd" }))).toBe(session.project);
  });
});
