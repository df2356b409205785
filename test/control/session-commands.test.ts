// The command surface every front end changes a running session through: a mode switch judged and
// booked in one place (plan mode's way back, the plan file; bypassPermissions only when available),
// a permission change that carries a mode going through that same switch, and the queue, reminder
// and background requests written where the loop reads them. A real session engine on the replay
// provider, ExitPlanMode included, so the bookkeeping is checked by what it changes downstream.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createSessionCommands, PermissionModeError } from "../../src/control/session-commands.js";
import { createSession } from "../../src/loop/session.js";
import { userText } from "../../src/messages/types.js";
import { modelInfoFor } from "../../src/models/resolve.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import { emptyPermissionContext, type PermissionMode } from "../../src/tool/permission-types.js";
import { ExitPlanModeTool } from "../../src/tools/exit-plan-mode/tool.js";
import { allowAll, tempDir, writeScript } from "../loop/helpers.js";

beforeAll(() => {
  process.env.WARDEN_HOME = tempDir("warden-commands-home-");
});

function sessionIn(mode: PermissionMode, options: { bypassAvailable?: boolean; turns?: object[] } = {}) {
  const cwd = tempDir("warden-commands-");
  const script = writeScript(cwd, options.turns ?? [{ content: [{ type: "text", text: "ok" }] }]);
  const session = createSession({
    provider: createReplayProvider(script, { cwd }),
    model: "scripted",
    tools: [ExitPlanModeTool],
    canUseTool: allowAll,
    cwd,
    loadMemory: false,
    transcript: false,
    permissionContext: {
      ...emptyPermissionContext(cwd, mode),
      isBypassPermissionsModeAvailable: options.bypassAvailable ?? mode === "bypassPermissions",
    },
  });
  return { session, commands: createSessionCommands(session), cwd };
}

describe("SessionCommands.setPermissionMode", () => {
  it("enters plan mode remembering the mode to come back to, and ExitPlanMode returns to it", async () => {
    const { session, commands } = sessionIn("acceptEdits", {
      turns: [
        { content: [{ type: "tool_use", id: "exit", name: "ExitPlanMode", input: {} }] },
        { content: [{ type: "text", text: "carrying it out" }] },
      ],
    });
    expect(commands.setPermissionMode("plan")).toBe("plan");
    const state = session.getAppState();
    expect(state.planMode).toEqual({ previousMode: "acceptEdits" });
    const planFile = state.toolPermissionContext.planFilePath as string;
    expect(planFile).toMatch(/plan\.md$/);
    mkdirSync(dirname(planFile), { recursive: true });
    writeFileSync(planFile, "# Plan\n1. Do it\n");
    let exitResult = "";
    for await (const event of session.submitMessage("plan it")) {
      if (event.type === "tool_result" && event.result.tool_use_id === "exit")
        exitResult = String(event.result.content);
    }
    expect(exitResult).toContain("the permission mode is now acceptEdits");
    expect(session.getAppState().toolPermissionContext.mode).toBe("acceptEdits");
    expect(session.getAppState().planMode).toBeUndefined();
  });

  it("leaves plan mode by hand forgetting the way back", () => {
    const { session, commands } = sessionIn("default");
    commands.setPermissionMode("plan");
    expect(commands.setPermissionMode("acceptEdits")).toBe("acceptEdits");
    expect(session.getAppState().planMode).toBeUndefined();
  });

  it("refuses bypassPermissions when the session did not make it available, and a name that is no mode", () => {
    const { session, commands } = sessionIn("default");
    expect(() => commands.setPermissionMode("bypassPermissions")).toThrow(PermissionModeError);
    expect(() => commands.setPermissionMode("yolo")).toThrow(/"yolo" is not a permission mode/);
    expect(session.getAppState().toolPermissionContext.mode).toBe("default");
  });

  it("switches to bypassPermissions when it was made available", () => {
    const { commands } = sessionIn("default", { bypassAvailable: true });
    expect(commands.setPermissionMode("bypassPermissions")).toBe("bypassPermissions");
  });
});

describe("SessionCommands' other changes", () => {
  it("routes a mode carried by a permission change through the same switch (bookkeeping and refusal)", () => {
    const { session, commands } = sessionIn("acceptEdits");
    commands.updatePermissions((context) => ({ ...context, mode: "plan" }));
    expect(session.getAppState().planMode).toEqual({ previousMode: "acceptEdits" });
    const before = session.getAppState();
    expect(() =>
      commands.updatePermissions((context) => ({
        ...context,
        workingDirectories: [...context.workingDirectories, "/elsewhere"],
        mode: "bypassPermissions",
      })),
    ).toThrow(PermissionModeError);
    // Refused as a whole: the folder did not come in either.
    expect(session.getAppState()).toBe(before);
    commands.applyPermissionUpdate({ type: "setMode", mode: "default", destination: "session" });
    expect(session.getAppState().toolPermissionContext.mode).toBe("default");
    expect(session.getAppState().planMode).toBeUndefined();
  });

  it("queues a user message, a reminder with a wake, and background requests where the loop reads them", () => {
    const { session, commands } = sessionIn("default");
    commands.queueMessage(userText("ran ls"));
    commands.remind("mail from the lead");
    commands.backgroundWhenStarted(["t1"]);
    commands.backgroundWhenStarted(["t2"]);
    const { channels } = session;
    expect(channels.userMessages.peek().map((m) => m.content)).toEqual([[{ type: "text", text: "ran ls" }]]);
    expect(channels.reminders.peek()).toEqual(["mail from the lead"]);
    expect(channels.wake.raised).toBe(true);
    expect(channels.backgroundWhenStarted.peek()).toEqual(["t1", "t2"]);
  });

  it("switches models one at a time, in the order asked, however long each switch takes", async () => {
    const { session } = sessionIn("default");
    const applied: string[] = [];
    // The first switch asked takes longer to resolve than the second.
    const commands = createSessionCommands(session, {
      switchModel: async (name) => {
        await new Promise((resolve) => setTimeout(resolve, name === "slow" ? 60 : 1));
        return { to: modelInfoFor("replay", name as string), apply: () => void applied.push(name as string) };
      },
    });
    await Promise.all([commands.setModel("slow"), commands.setModel("fast")]);
    expect(applied).toEqual(["slow", "fast"]);
    // A refused or failed switch does not hold the next one back.
    const failing = createSessionCommands(session, {
      switchModel: async (name) => {
        if (name === "broken") throw new Error("no such model");
        return { to: modelInfoFor("replay", name as string), apply: () => void applied.push(name as string) };
      },
    });
    const results = await Promise.allSettled([failing.setModel("broken"), failing.setModel("after")]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "fulfilled"]);
    expect(applied.at(-1)).toBe("after");
  });

  it("refuses a model switch when the session was given none", async () => {
    const { commands } = sessionIn("default");
    await expect(commands.setModel("other")).rejects.toThrow(/cannot switch its model/);
  });
});
