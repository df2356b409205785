// An idle session takes a turn, unprompted, for what arrives for the model (src/loop/wake.ts): a
// real background command ending, a scheduled prompt falling due, mail for a team's lead. Real
// Bash, real files, the model on a scripted server on 127.0.0.1.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createSession, type SessionEngine } from "../../src/loop/session.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { deliver } from "../../src/session/mailbox.js";
import { buildTool } from "../../src/tool/build-tool.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { TEAM_LEAD_NAME } from "../../src/tool/team.js";
import type { AnyTool } from "../../src/tool/types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import { createSessionSchedule } from "../../src/tools/cron-shared/session-schedule.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { FakeClock } from "../tools/cron/fake-clock.js";
import { allowAll, tempDir } from "./helpers.js";

let server: ScriptedModelServer;
let home: string;
let cwd: string;
const sessions: SessionEngine[] = [];
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
beforeEach(() => {
  home = tempDir("warden-wake-home-");
  cwd = tempDir("warden-wake-project-");
  vi.stubEnv("WARDEN_HOME", home);
});
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
  expect(server.pendingSteps()).toBe(0);
});

function newSession(tools: AnyTool[] = [BashTool as AnyTool]): SessionEngine {
  const session = createSession({
    provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
    model: "claude-test",
    tools,
    canUseTool: allowAll,
    cwd,
    transcript: false,
    loadMemory: false,
    permissionContext: emptyPermissionContext(cwd),
  });
  sessions.push(session);
  return session;
}

async function finish(run: AsyncGenerator<unknown, { reason: string }>): Promise<string> {
  for (let step = await run.next(); ; step = await run.next()) if (step.done) return step.value.reason;
}

/** Returns once every background task of the session has ended (their notices queued by then). */
const waitForTasksTool = buildTool({
  name: "WaitForTasks",
  inputSchema: z.object({}),
  async prompt() {
    return "Waits for the background tasks.";
  },
  isReadOnly: () => true,
  async call(_input, context) {
    const registry = context.getAppState().backgroundTasks;
    for (const task of registry?.list() ?? []) await registry?.waitFor(task.id, 30_000);
    return { data: "all ended" };
  },
}) as AnyTool;

/** Resolves at the first wake the session announces. */
const nextWake = (session: SessionEngine) =>
  new Promise<void>((resolve) => {
    const stop = session.onWake(() => {
      stop();
      resolve();
    });
  });

/** The last message of the request the server received at `index`, as JSON. */
const lastMessageOf = (index: number) =>
  JSON.stringify((server.requests[index]?.body as { messages?: unknown[] } | undefined)?.messages?.slice(-1));

describe("an idle session's wake", () => {
  it("a background command that ends after the prompt wakes the session; the turn carries its notice", async () => {
    const session = newSession();
    const at = server.requests.length;
    server.enqueue(
      // It ends only once the test lets it (the file "go"), after the prompt: no race with the prompt's end.
      reply().tool("Bash", {
        command: "while [ ! -e go ]; do sleep 0.05; done; echo built",
        run_in_background: true,
        description: "Build",
      }),
      reply().text("Started the build; I will look when it ends."),
      reply().text("The build finished."),
    );
    const woken = nextWake(session);
    expect(await finish(session.submitMessage("build it"))).toBe("completed");
    expect(session.wakeDue).toBe(false);
    writeFileSync(join(cwd, "go"), "");
    await woken;
    expect(session.wakeDue).toBe(true);
    expect(await finish(session.submitMessage())).toBe("completed");
    const notice = lastMessageOf(at + 2);
    expect(notice).toMatch(/Background task \w+: command \\"Build\\"/);
    expect(notice).toContain("completed with exit code 0");
    expect(session.wakeDue).toBe(false);
    expect(session.channels.wake.raised).toBe(false);
  });

  it("a notice that arrives while a prompt runs goes with that prompt, and nothing is due after it", async () => {
    const session = newSession([BashTool as AnyTool, waitForTasksTool]);
    const at = server.requests.length;
    server.enqueue(
      reply().tool("Bash", { command: "echo quick", run_in_background: true, description: "Quick one" }),
      // This call returns once the background command has ended, so its notice waits for request 3.
      reply().tool("WaitForTasks", {}),
      reply().text("Both done."),
    );
    let wakes = 0;
    session.onWake(() => wakes++);
    expect(await finish(session.submitMessage("go"))).toBe("completed");
    expect(lastMessageOf(at + 2)).toContain("Quick one");
    expect(session.wakeDue).toBe(false);
    expect(session.channels.wake.raised).toBe(false);
    expect(wakes).toBe(0);
  });

  it("a scheduled prompt that falls due while idle wakes the session and is the turn's message", async () => {
    const session = newSession([]);
    const clock = new FakeClock(new Date(2026, 0, 1, 10, 2, 0).getTime());
    const schedule = await createSessionSchedule(session, cwd, clock);
    session.setAppState((prev) => ({ ...prev, cron: schedule }));
    await schedule.create({ cron: "*/5 * * * *", prompt: "Check the deploy status", recurring: false, durable: false });
    const woken = nextWake(session);
    clock.advance(3 * 60_000); // 10:05: due
    await woken;
    const at = server.requests.length;
    server.enqueue(reply().text("The deploy is fine."));
    expect(await finish(session.submitMessage())).toBe("completed");
    expect(lastMessageOf(at)).toContain("Check the deploy status");
    expect(session.wakeDue).toBe(false);
  });

  it("mail for an idle team lead, written by another process, makes a turn due", async () => {
    const session = newSession([]);
    const dir = join(home, "teams", "crew");
    mkdirSync(join(dir, "inboxes"), { recursive: true });
    session.setAppState((prev) => ({
      ...prev,
      team: { teamName: "crew", memberName: TEAM_LEAD_NAME, isLead: true, dir },
    }));
    const woken = nextWake(session);
    expect(session.wakeDue).toBe(false);
    deliver(dir, TEAM_LEAD_NAME, {
      id: "m1",
      from: "alice",
      text: "Task 3 is done",
      timestamp: new Date().toISOString(),
      read: false,
    });
    await woken;
    expect(session.wakeDue).toBe(true);
  });

  it("a turn without a prompt is refused when nothing waits", async () => {
    const session = newSession([]);
    await expect(session.submitMessage().next()).rejects.toThrow(/nothing waits for the model/);
    expect(session.isRunning).toBe(false);
  });
});
