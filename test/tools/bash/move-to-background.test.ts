// Ctrl+B: a running foreground command moved to the background. The call ends at once with the
// task's id; the command runs on, everything it writes (before and after the move) lands in the
// task's file, and the model is told when it finishes.
import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadBashAnalysis } from "../../../src/permissions/bash/lazy-analysis.js";
import { textOfResult } from "../../orchestration/fixtures.js";
import { createSession, type Session } from "./harness.js";

let session: Session | undefined;
// In a session the permission step has loaded the shell analysis before the call runs (the call
// reads the command's programs from it); this harness skips that step, so load it here.
beforeAll(async () => {
  await loadBashAnalysis();
});
afterEach(async () => {
  await session?.cleanup();
  session = undefined;
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("moving a running Bash command to the background", () => {
  it("ends the call with the task id and keeps the command and all its output going", async () => {
    session = createSession();
    const s = session;
    const call = s.run("Bash", { command: "echo before; sleep 3; echo after" });
    await until(() => (s.context.getAppState().foregroundCommands?.running() ?? 0) === 1);
    // Its first line is out before the move.
    await new Promise((r) => setTimeout(r, 300));
    expect(s.context.getAppState().foregroundCommands?.moveAllToBackground()).toBe(1);
    // The call ends while the command still runs (the task is "running" below), not when it ends.
    const result = await call;
    const text = textOfResult(result);
    expect(result.is_error).toBeFalsy();
    expect(text).toContain("The user moved this command to the background");
    const id = /task id (b[0-9a-f]+)/.exec(text)?.[1] as string;
    const registry = s.context.getAppState().backgroundTasks;
    const task = registry?.get(id);
    expect(task?.status).toBe("running");
    const finished = await registry?.waitFor(id, 10_000);
    expect(finished?.status).toBe("completed");
    await until(() => readFileSync(task?.outputPath as string, "utf8").includes("after"));
    expect(readFileSync(task?.outputPath as string, "utf8")).toBe("before\nafter\n");
    expect(s.context.channels.reminders.peek().join("\n")).toContain(`Background task ${id}`);
    expect(s.context.getAppState().foregroundCommands?.running()).toBe(0);
  });

  it("does nothing to a command that has already finished", async () => {
    session = createSession();
    const result = await session.run("Bash", { command: "echo done" });
    expect(textOfResult(result)).toContain("done");
    expect(session.context.getAppState().foregroundCommands?.moveAllToBackground()).toBe(0);
  });
});
