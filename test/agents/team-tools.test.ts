// The team tools one call at a time, through the real permission engine and runToolUse, on real
// team files in a temp session folder: what TeamCreate writes, what SendMessage refuses and
// delivers (once), the hard rules of a shared task list in a team (someone else's task, a blocked
// one), the new owner told of its task, and what a teammate may not do (a durable Cron task).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UserMessage } from "../../src/messages/types.js";
import { takeUnread } from "../../src/session/mailbox.js";
import { addTeamMember, readTeamFile } from "../../src/session/team-files.js";
import type { AttachmentContext } from "../../src/tool/types.js";
import { AgentTool } from "../../src/tools/agent/tool.js";
import { CronCreateTool } from "../../src/tools/cron-create/tool.js";
import { builtInTools } from "../../src/tools/registry.js";
import { SendMessageTool } from "../../src/tools/send-message/tool.js";
import { TaskCreateTool } from "../../src/tools/task-create/tool.js";
import { TaskUpdateTool } from "../../src/tools/task-update/tool.js";
import { TeamCreateTool } from "../../src/tools/team-create/tool.js";
import { TeamDeleteTool } from "../../src/tools/team-delete/tool.js";
import { teamMailboxSource } from "../../src/tools/team-shared/delivery.js";
import { tempDir } from "../loop/helpers.js";
import { type Harness, makeHarness } from "../tools/planning/harness.js";

let harness: Harness | undefined;

afterEach(() => {
  harness?.cleanup();
  harness = undefined;
});

function teamHarness(): Harness {
  harness = makeHarness({ tools: builtInTools({ teams: true }), mode: "acceptEdits" });
  return harness;
}

/** Makes the harness's context a teammate of the team it leads now. */
function becomeTeammate(h: Harness, name: string): void {
  const team = h.context.getAppState().team;
  if (!team) throw new Error("no team");
  addTeamMember(team.dir, { name, agentId: `agent-${name}`, agentType: "general-purpose", joinedAt: "", active: true });
  h.context.setAppState((prev) => ({ ...prev, team: { ...team, memberName: name, isLead: false } }));
  h.context.agentId = `agent-${name}`;
}

function deliveredTo(h: Harness): string {
  const items = teamMailboxSource.collect({ context: h.context, turn: 1, now: new Date() } as AttachmentContext);
  if (!items || !Array.isArray(items)) return "";
  return items
    .map((item) => ("message" in item ? JSON.stringify((item.message as UserMessage).content) : item.text))
    .join("\n");
}

describe("TeamCreate", () => {
  it("writes the team file with the lead, switches the Task tools to the team's list, and refuses a second team", async () => {
    const h = teamHarness();
    expect((await h.call(TeamCreateTool, { team_name: "bad name!" })).text).toContain("is not a valid team name");
    const created = await h.call(TeamCreateTool, { team_name: "crew", description: "a test team" });
    expect(created.text).toContain('Team "crew" created');
    const team = h.context.getAppState().team;
    expect(team).toMatchObject({ teamName: "crew", memberName: "team-lead", isLead: true });
    expect(readTeamFile(team?.dir ?? "")).toMatchObject({
      name: "crew",
      description: "a test team",
      members: [{ name: "team-lead", active: true }],
    });
    await h.call(TaskCreateTool, { subject: "Shared work", description: "d" });
    expect(existsSync(join(team?.dir ?? "", "tasks", "1.json"))).toBe(true);
    expect((await h.call(TeamCreateTool, { team_name: "other" })).text).toContain('You already lead the team "crew"');

    const deleted = await h.call(TeamDeleteTool, {});
    expect(deleted.text).toContain('Team "crew" deleted');
    expect(existsSync(team?.dir ?? "")).toBe(false);
    expect(h.context.getAppState().team).toBeUndefined();
    expect((await h.call(TeamDeleteTool, {})).text).toContain("You lead no team");
  });
});

describe("SendMessage", () => {
  it("refuses what cannot be delivered, with a reason the model can act on", async () => {
    const h = teamHarness();
    const send = (input: Record<string, unknown>) => h.call(SendMessageTool, input);
    expect((await send({ to: "bob", message: "hi", summary: "hello" })).text).toContain("You are not in a team");
    await h.call(TeamCreateTool, { team_name: "crew" });
    addTeamMember(h.context.getAppState().team?.dir ?? "", {
      name: "bob",
      agentId: "b",
      agentType: "general-purpose",
      joinedAt: "",
      active: true,
    });
    expect((await send({ to: "carol", message: "hi", summary: "hello" })).text).toContain(
      'There is no member named "carol" in team "crew". Members: bob.',
    );
    expect((await send({ to: "bob", message: "hi" })).text).toContain("A plain message needs a summary");
    expect((await send({ to: "*", message: { type: "shutdown_request" } })).text).toContain(
      "Only plain messages can be broadcast",
    );
    // Another session: only a plain message with a summary, to a socket that a session listens on.
    expect((await send({ to: "uds:x.sock", message: "hi", summary: "s" })).text).toContain(
      "a uds: recipient is the absolute path of a socket",
    );
    expect((await send({ to: "bridge:../x", message: "hi", summary: "s" })).text).toContain(
      "a bridge: recipient is a session id",
    );
    expect((await send({ to: "bridge:abc", message: { type: "shutdown_request" } })).text).toContain(
      "Only a plain message with a summary can go to another session",
    );
    // A valid one asks this session's user first (here nobody can be asked).
    const nobody = join(tempDir("warden-no-session-"), "none.sock");
    expect((await send({ to: `uds:${nobody}`, message: "hi", summary: "s" })).text).toContain(
      "Permission to use SendMessage was denied",
    );
    expect((await send({ to: "team-lead", message: "hi", summary: "s" })).text).toContain("cannot message yourself");
    expect(
      (await send({ to: "bob", message: { type: "shutdown_response", request_id: "x", approve: true } })).text,
    ).toContain("Only a teammate sends shutdown_response");
  });

  it("delivers a message once, at the recipient's next turn, as a teammate-message", async () => {
    const h = teamHarness();
    await h.call(TeamCreateTool, { team_name: "crew" });
    becomeTeammate(h, "bob");
    // Bob writes to the lead; the lead's delivery shows it once.
    const sent = await h.call(SendMessageTool, { to: "team-lead", message: "Found the bug", summary: "bug found" });
    expect(sent.text).toBe("Message sent to team-lead.");
    const dir = h.context.getAppState().team?.dir ?? "";
    const [message] = takeUnread(dir, "team-lead");
    expect(message).toMatchObject({ from: "bob", text: "Found the bug", summary: "bug found" });
    expect(takeUnread(dir, "team-lead")).toEqual([]);
    // A shutdown approved by bob ends its work after the turn.
    const approve = await h.call(SendMessageTool, {
      to: "team-lead",
      message: { type: "shutdown_response", request_id: "shutdown-1", approve: true },
    });
    expect(approve.text).toContain("your work ends after this turn");
    expect(h.context.channels.shutdownApproved.raised).toBe(true);
  });
});

describe("a team's shared task list", () => {
  it("tells the new owner, refuses someone else's task and a blocked one, and makes the taker its owner", async () => {
    const h = teamHarness();
    await h.call(TeamCreateTool, { team_name: "crew" });
    const dir = h.context.getAppState().team?.dir ?? "";
    addTeamMember(dir, { name: "bob", agentId: "b", agentType: "general-purpose", joinedAt: "", active: true });
    await h.call(TaskCreateTool, { subject: "Schema", description: "d" });
    await h.call(TaskCreateTool, { subject: "Migration", description: "d" });
    await h.call(TaskCreateTool, { subject: "Docs", description: "d" });
    await h.call(TaskUpdateTool, { taskId: "2", addBlockedBy: ["1"] });
    await h.call(TaskUpdateTool, { taskId: "1", owner: "bob" });
    const [assignment] = takeUnread(dir, "bob");
    expect(assignment?.structured).toEqual({ type: "task_assignment", task_id: "1", subject: "Schema" });

    becomeTeammate(h, "alice");
    expect((await h.call(TaskUpdateTool, { taskId: "1", status: "in_progress" })).text).toContain(
      "Task #1 belongs to bob",
    );
    expect((await h.call(TaskUpdateTool, { taskId: "2", status: "in_progress" })).text).toContain(
      "Task #2 is blocked by #1",
    );
    expect((await h.call(TaskUpdateTool, { taskId: "3", status: "in_progress" })).text).toContain(
      "status pending → in_progress",
    );
    const task = JSON.parse(readFileSync(join(dir, "tasks", "3.json"), "utf8")) as { owner?: string };
    expect(task.owner).toBe("alice");
  });
});

describe("what a teammate may not do", () => {
  it("cannot create a durable Cron task (error 4) or start agents", async () => {
    const h = teamHarness();
    await h.call(TeamCreateTool, { team_name: "crew" });
    becomeTeammate(h, "alice");
    const cron = await h.call(CronCreateTool, { cron: "0 9 * * 1", prompt: "weekly", durable: true });
    expect(cron.text).toContain("cannot create a durable task");
    const agent = await h.call(AgentTool, { description: "d", prompt: "p", team_name: "crew", name: "zed" });
    expect(agent.text).toContain("A subagent cannot start agents");
  });

  it("is not started where teams are not enabled", async () => {
    harness = makeHarness({ mode: "acceptEdits" });
    const agent = await harness.call(AgentTool, { description: "d", prompt: "p", team_name: "crew", name: "zed" });
    expect(agent.text).toContain("Teams are not enabled in this session (WARDEN_AGENT_TEAMS=1");
  });
});

describe("the mailbox attachment", () => {
  it("gives the recipient its messages at its next request, then nothing", async () => {
    const h = teamHarness();
    await h.call(TeamCreateTool, { team_name: "crew" });
    becomeTeammate(h, "bob");
    const dir = h.context.getAppState().team?.dir ?? "";
    // The lead writes to bob (as the lead's SendMessage would).
    h.context.setAppState((prev) => ({
      ...prev,
      team: { teamName: "crew", memberName: "team-lead", isLead: true, dir },
    }));
    h.context.agentId = undefined;
    await h.call(SendMessageTool, { to: "bob", message: "Take #1", summary: "take task one" });
    h.context.setAppState((prev) => ({ ...prev, team: { teamName: "crew", memberName: "bob", isLead: false, dir } }));
    const first = deliveredTo(h);
    expect(first).toContain('<teammate-message teammate_id=\\"team-lead\\" summary=\\"take task one\\">\\nTake #1');
    expect(deliveredTo(h)).toBe("");
  });
});
