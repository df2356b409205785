// The task-list and plan-mode reminders (attachments the list and plan tools bring), seen where
// they matter: in the requests a model server on 127.0.0.1 receives from a real session (the
// Anthropic provider, the real loop, attachment module and tools). Each request is checked for the
// <system-reminder> texts that arrived since the model's last turn.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { QueryEvent } from "../../src/loop/events.js";
import { createSession, type SessionEngineOptions } from "../../src/loop/session.js";
import { withPermissionMode } from "../../src/permissions/settings/plan-mode.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { EnterPlanModeTool } from "../../src/tools/enter-plan-mode/tool.js";
import { PLAN_MODE_FULL_EVERY_TURNS } from "../../src/tools/plan-shared/reminder.js";
import { TaskCreateTool } from "../../src/tools/task-create/tool.js";
import { TASK_LIST_SPARSE_EVERY_TURNS, TASK_LIST_STALE_AFTER_TURNS } from "../../src/tools/task-shared/reminder.js";
import { TaskUpdateTool } from "../../src/tools/task-update/tool.js";
import { TodoWriteTool } from "../../src/tools/todo-write/tool.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { allowAll, EchoTool } from "./helpers.js";

let server: ScriptedModelServer;
let home: string;
const savedHome = process.env.WARDEN_HOME;

beforeAll(async () => {
  server = await startScriptedModelServer();
  home = mkdtempSync(join(tmpdir(), "warden-reminders-"));
  process.env.WARDEN_HOME = home;
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  if (savedHome === undefined) delete process.env.WARDEN_HOME;
  else process.env.WARDEN_HOME = savedHome;
});
afterEach(() => expect(server.pendingSteps()).toBe(0));

interface WireMessage {
  role: string;
  content: Array<{ type: string; text?: string }>;
}

/** The <system-reminder> texts of each request received from `from` on, sent after the model's last turn. */
function remindersPerRequest(from: number): string[][] {
  return server.requests.slice(from).map((request) => {
    const messages = (request.body as { messages: WireMessage[] }).messages;
    const lastAssistant = messages.map((m) => m.role).lastIndexOf("assistant");
    return messages
      .slice(lastAssistant + 1)
      .flatMap((m) => m.content)
      .filter((block) => block.type === "text" && block.text?.includes("<system-reminder>"))
      .map((block) => block.text ?? "");
  });
}

async function runSession(tools: AnyTool[], extra: Partial<SessionEngineOptions> = {}): Promise<QueryEvent[]> {
  const session = createSession({
    provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
    model: "scripted",
    tools: [EchoTool, ...tools],
    canUseTool: allowAll,
    cwd: home,
    transcript: false,
    loadMemory: false,
    ...extra,
  });
  const events: QueryEvent[] = [];
  for await (const event of session.submitMessage("Do the work")) events.push(event);
  return events;
}

const echo = () => reply().tool("Echo", { text: "working" });
const todos = (statuses: string[]) => ({
  todos: statuses.map((status, i) => ({ content: `Step ${i + 1}`, status, activeForm: `Doing step ${i + 1}` })),
});

describe("the task-list reminder", () => {
  it("full after a change, one line every few turns, a nudge when stale, verification once all is done", async () => {
    const first = server.requests.length;
    // Request 1 writes the list; requests 2-12 work on; 13 closes the list out; 14 answers.
    server.enqueue(reply().tool("TodoWrite", todos(["in_progress", "pending", "pending"])));
    for (let turn = 2; turn <= 12; turn++) server.enqueue(echo());
    server.enqueue(reply().tool("TodoWrite", todos(["completed", "completed", "completed"])));
    server.enqueue(reply().text("All done."));
    const events = await runSession([TodoWriteTool]);
    const reminders = remindersPerRequest(first);
    expect(reminders).toHaveLength(14);

    const turnsWith = (pattern: RegExp) =>
      reminders.flatMap((texts, i) => (texts.some((t) => pattern.test(t)) ? [i + 1] : []));
    // Request 1 has no list yet; request 2 follows the change.
    expect(reminders[0]).toEqual([]);
    expect(reminders[1]?.[0]).toContain(
      "The task list changed. It now reads:\n1. [in_progress] Step 1\n2. [pending] Step 2\n3. [pending] Step 3",
    );
    // The change was seen at request 2: one-line notes every TASK_LIST_SPARSE_EVERY_TURNS requests
    // after the last reminder, until the list has been quiet for TASK_LIST_STALE_AFTER_TURNS.
    const stale = 2 + TASK_LIST_STALE_AFTER_TURNS;
    expect(stale).toBe(12);
    expect(TASK_LIST_SPARSE_EVERY_TURNS).toBe(3);
    expect(turnsWith(/^<system-reminder>\nTask list: 0 of 3 completed; in progress: Doing step 1\./)).toEqual([
      5, 8, 11,
    ]);
    expect(turnsWith(/has not changed for 10 turns/)).toEqual([stale]);
    expect(reminders[stale - 1]?.[0]).toContain("update it now with TodoWrite");
    expect(turnsWith(/./)).toEqual([2, 5, 8, 11, 12, 14]);
    // Closing out three tasks on the main thread: the verification suggestion, once.
    expect(reminders[13]?.[0]).toContain("All 3 tasks of the list are completed.");
    expect(reminders[13]?.[0]).toContain("run a verification agent");
    // People see each change once, as a todo event.
    const lists = events.filter((e): e is Extract<QueryEvent, { type: "todo" }> => e.type === "todo");
    expect(lists.map((e) => e.list.items.map((item) => item.status))).toEqual([
      ["in_progress", "pending", "pending"],
      ["completed", "completed", "completed"],
    ]);
    expect(lists[0]?.list.family).toBe("TodoWrite");
  });

  it("shows the Tasks family's list with ids, owners and what blocks what", async () => {
    const first = server.requests.length;
    server.enqueue(
      reply()
        .tool("TaskCreate", { subject: "Design", description: "" })
        .tool("TaskCreate", { subject: "Build", description: "" }),
    );
    server.enqueue(reply().tool("TaskUpdate", { taskId: "2", addBlockedBy: ["1"] }));
    server.enqueue(reply().text("Planned."));
    const events = await runSession([TaskCreateTool, TaskUpdateTool]);
    const reminders = remindersPerRequest(first);
    expect(reminders[1]?.[0]).toContain("It now reads:\n#1 [pending] Design\n#2 [pending] Build\n");
    expect(reminders[2]?.[0]).toContain("#2 [pending] Build (blocked by #1)");
    expect(events.filter((e) => e.type === "todo")).toHaveLength(2);
  });

  it("sends nothing to a session that never made a list", async () => {
    const first = server.requests.length;
    for (let turn = 1; turn <= 4; turn++) server.enqueue(echo());
    server.enqueue(reply().text("ok"));
    await runSession([TodoWriteTool]);
    expect(remindersPerRequest(first).flat()).toEqual([]);
  });
});

describe("the plan-mode reminder", () => {
  it("is not sent outside plan mode", async () => {
    const first = server.requests.length;
    server.enqueue(echo(), reply().text("ok"));
    await runSession([EnterPlanModeTool]);
    expect(remindersPerRequest(first).flat()).toEqual([]);
  });

  it("goes out on every request while plan mode is on: in full every few turns, one line between", async () => {
    const first = server.requests.length;
    for (let turn = 1; turn <= 6; turn++) server.enqueue(echo());
    server.enqueue(reply().text("Here is the plan."));
    const planFile = join(home, "plan-session", "plan.md");
    // Started in plan mode: the plan tools, in the pool as always, bring the reminder.
    await runSession([EnterPlanModeTool], {
      permissionContext: { ...emptyPermissionContext(home, "plan"), planFilePath: planFile },
    });
    const reminders = remindersPerRequest(first);
    expect(reminders.every((texts) => texts.length === 1)).toBe(true);
    const full = reminders.flatMap((texts, i) => (texts[0]?.includes("Plan mode is on.") ? [i + 1] : []));
    expect(full).toEqual([1, 1 + PLAN_MODE_FULL_EVERY_TURNS]);
    expect(reminders[0]?.[0]).toContain(`The one exception is the plan file, ${planFile}`);
    expect(reminders[0]?.[0]).toContain("Call ExitPlanMode to have the plan approved");
    expect(reminders[1]?.[0]).toBe(
      `<system-reminder>\nPlan mode is still on: change nothing except the plan file ${planFile}. Call ExitPlanMode when the plan is ready.\n</system-reminder>`,
    );
  });

  it("says once that plan mode is off when the mode is switched away from plan (not by ExitPlanMode)", async () => {
    const first = server.requests.length;
    server.enqueue(reply().text("Planned."), reply().text("Doing it."), reply().text("Done."));
    const session = createSession({
      provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
      model: "scripted",
      tools: [EchoTool, EnterPlanModeTool],
      canUseTool: allowAll,
      cwd: home,
      transcript: false,
      loadMemory: false,
      permissionContext: emptyPermissionContext(home, "plan"),
    });
    const drain = async (prompt: string) => {
      for await (const _ of session.submitMessage(prompt));
    };
    await drain("Plan the work");
    // What the SDK's setPermissionMode, shift+tab or an editor's mode picker does.
    session.setAppState((prev) => withPermissionMode(prev, "acceptEdits", home));
    await drain("Go ahead");
    await drain("And now?");
    const reminders = remindersPerRequest(first);
    expect(reminders[0]?.[0]).toContain("Plan mode is on.");
    expect(reminders[1]).toEqual([
      "<system-reminder>\nPlan mode is off: the permission mode is now acceptEdits. You may now make changes, run commands and carry out the work.\n</system-reminder>",
    ]);
    expect(reminders[2]).toEqual([]);
  });
});
