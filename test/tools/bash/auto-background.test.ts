// A foreground command that outlives its time: a typically long-running program (a server, a watch
// build) moves to the background task registry, as Ctrl+B would move it, and the model gets its
// task id; any other command is still stopped at its timeout. With a blocking budget set, every
// command still running after it moves.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { analyzeCommand, commandFacts } from "../../../src/shell/analysis/index.js";
import { runsLongRunningProgram } from "../../../src/tools/bash/long-running.js";
import { textOfResult } from "../../orchestration/fixtures.js";
import { createSession, type Session } from "./harness.js";

let session: Session | undefined;
afterEach(async () => {
  delete process.env.BASH_BLOCKING_BUDGET_MS;
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

const SERVER = `node -e 'console.log("listening"); setInterval(() => console.log("tick"), 100)'`;

describe("auto-background on timeout", () => {
  it("moves a dev-server-like command to the background with a task id the model can read and stop", async () => {
    session = createSession();
    const s = session;
    const result = await s.run("Bash", { command: SERVER, timeout: 1_000 });
    const text = textOfResult(result);
    expect(result.is_error).toBeFalsy();
    expect(text).toContain("was still running after 1 s, so it was moved to the background");
    const id = /task id (b[0-9a-f]+)/.exec(text)?.[1] as string;
    const registry = s.context.getAppState().backgroundTasks;
    const task = registry?.get(id);
    expect(task?.status).toBe("running");
    // It keeps writing after the move, into the task's file.
    await until(() => (readFileSync(task?.outputPath as string, "utf8").match(/tick/g)?.length ?? 0) > 12);
    expect(readFileSync(task?.outputPath as string, "utf8")).toMatch(/^listening\ntick\n/);
    const output = textOfResult(await s.run("TaskOutput", { task_id: id, block: false }));
    expect(output).toContain("listening");
    await s.run("TaskStop", { task_id: id });
    expect(registry?.get(id)?.status).toBe("killed");
  });

  it("still stops a command that is not typically long-running", async () => {
    session = createSession();
    const result = await session.run("Bash", { command: "echo started; while :; do sleep 0.1; done", timeout: 600 });
    expect(result.is_error).toBe(true);
    expect(textOfResult(result)).toContain("Command timed out after 0.6 s");
    expect(session.context.getAppState().backgroundTasks?.list() ?? []).toHaveLength(0);
  });

  it("with a blocking budget, moves any command still running after it, and it completes there", async () => {
    process.env.BASH_BLOCKING_BUDGET_MS = "300";
    session = createSession();
    const s = session;
    const result = await s.run("Bash", { command: "echo begin; sleep 1; echo end" });
    const id = /task id (b[0-9a-f]+)/.exec(textOfResult(result))?.[1] as string;
    expect(id).toBeTruthy();
    const finished = await s.context.getAppState().backgroundTasks?.waitFor(id, 10_000);
    expect(finished?.status).toBe("completed");
    await until(() => readFileSync(finished?.outputPath as string, "utf8").includes("end"));
    expect(readFileSync(finished?.outputPath as string, "utf8")).toBe("begin\nend\n");
  });

  it("reads the programs from the analysis, through wrappers: timeout 60 npm test runs npm", async () => {
    const facts = async (command: string) => commandFacts(await analyzeCommand(command, process.cwd()));
    expect(runsLongRunningProgram((await facts("timeout 60 npm test")).programs)).toBe(true);
    expect(runsLongRunningProgram((await facts("cd web && /usr/bin/env FOO=1 vite --port 3000")).programs)).toBe(true);
    expect(runsLongRunningProgram((await facts("sleep 5; cat file")).programs)).toBe(false);
  });
});
