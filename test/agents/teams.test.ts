// Teams in a real session: TeamCreate, teammates started with Agent (team_name + name) running their
// own loops in process, a shared task list on disk, SendMessage through mailboxes delivered at the
// next turn, idle notifications that wake the lead, shutdown requests and responses, TeamDelete.
// Real tools (Bash, the Task tools) on a temp project; only the model is replaced, by an in-test
// provider that answers each request from what it carries (main loop and each teammate apart by
// ModelRequest.agent.name), since the teammates' turns interleave in no fixed order.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sessionArtifactsDir } from "../../src/config/paths.js";
import type { QueryEvent } from "../../src/loop/events.js";
import { createSession } from "../../src/loop/session.js";
import type { AssistantContentBlock, Message } from "../../src/messages/types.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../src/permissions/engine/index.js";
import type { ModelRequest, Provider } from "../../src/providers/types.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { allowAll, tempDir } from "../loop/helpers.js";

type Answer = (request: ModelRequest) => AssistantContentBlock[];

function scriptedProvider(answers: Record<string, Answer>): { provider: Provider; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    provider: {
      name: "scripted",
      async *stream(request) {
        requests.push({ ...request, messages: structuredClone(request.messages) });
        const who = request.agent?.name ?? "lead";
        const answer = answers[who];
        if (!answer) throw new Error(`no answers for ${who}`);
        const blocks = answer(request);
        for (const block of blocks) yield { type: "block", block };
        yield { type: "stop", stopReason: blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn" };
      },
    },
  };
}

const text = (value: string): AssistantContentBlock => ({ type: "text", text: value });
let ids = 0;
const call = (name: string, input: Record<string, unknown>): AssistantContentBlock => ({
  type: "tool_use",
  id: `toolu_${++ids}`,
  name,
  input,
});

/** Every text the request's user messages carry (tool results included), joined. */
function userTexts(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role !== "user") continue;
    if (typeof message.content === "string") {
      parts.push(message.content);
      continue;
    }
    for (const block of message.content) {
      if (block.type === "text") parts.push(block.text);
      if (block.type === "tool_result")
        parts.push(typeof block.content === "string" ? block.content : JSON.stringify(block.content));
    }
  }
  return parts.join("\n");
}

/** The tool calls the model made so far in this conversation, by name. */
function calledSoFar(messages: readonly Message[], name: string): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type === "tool_use" && block.name === name) found.push(block.input as Record<string, unknown>);
    }
  }
  return found;
}

const turnOf = (request: ModelRequest) => request.messages.filter((m) => m.role === "assistant").length;

async function drain(events: AsyncGenerator<QueryEvent>): Promise<QueryEvent[]> {
  const all: QueryEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function resultsOf(events: readonly QueryEvent[]): string[] {
  return events.flatMap((e) => (e.type === "tool_result" ? [String(e.result.content)] : []));
}

/**
 * A teammate that takes task `taskId`, writes `file` with Bash, completes the task, reports to the
 * lead and goes idle; woken by a shutdown request, it approves it.
 */
function worker(taskId: string, file: string, word: string): Answer {
  return (request) => {
    const seen = userTexts(request.messages);
    const shutdown = /"type":"shutdown_request","request_id":"(shutdown-[0-9a-f]+)"/.exec(seen);
    if (shutdown && calledSoFar(request.messages, "SendMessage").length === 1) {
      return [
        call("SendMessage", {
          to: "team-lead",
          message: { type: "shutdown_response", request_id: shutdown[1], approve: true },
        }),
      ];
    }
    switch (turnOf(request)) {
      case 0:
        return [call("TaskUpdate", { taskId, status: "in_progress" })];
      case 1:
        return [call("Bash", { command: `echo ${word} > ${file}` })];
      case 2:
        return [
          call("TaskUpdate", { taskId, status: "completed" }),
          call("SendMessage", {
            to: "team-lead",
            message: `Task ${taskId} done: ${file}`,
            summary: `task ${taskId} done`,
          }),
        ];
      default:
        return [text(`Finished task ${taskId}.`)];
    }
  };
}

/** The lead: creates the team and its list, starts two teammates, waits, shuts them down, deletes the team. */
const lead: Answer = (request) => {
  const seen = userTexts(request.messages);
  switch (turnOf(request)) {
    case 0:
      return [call("TeamCreate", { team_name: "crew", description: "two writers" })];
    case 1:
      return [
        call("TaskCreate", { subject: "Write a.txt", description: "alpha in a.txt" }),
        call("TaskCreate", { subject: "Write b.txt", description: "beta in b.txt" }),
      ];
    case 2:
      return [
        call("Agent", { team_name: "crew", name: "alice", description: "writer a", prompt: "Do task 1." }),
        call("Agent", { team_name: "crew", name: "bob", description: "writer b", prompt: "Do task 2." }),
      ];
  }
  const idle = (name: string) =>
    new RegExp(`teammate_id="${name}">\\n\\{"type":"idle_notification","idle_reason":"available"`).test(seen);
  const approved = (name: string) =>
    new RegExp(`teammate_id="${name}">\\n\\{"type":"shutdown_response","request_id":"[^"]+","approve":true`).test(seen);
  const requested = calledSoFar(request.messages, "SendMessage").length > 0;
  if (!requested && idle("alice") && idle("bob")) {
    return [
      call("SendMessage", { to: "alice", message: { type: "shutdown_request", reason: "all done" } }),
      call("SendMessage", { to: "bob", message: { type: "shutdown_request", reason: "all done" } }),
    ];
  }
  if (requested && approved("alice") && approved("bob") && calledSoFar(request.messages, "TaskList").length === 0) {
    return [call("TaskList", {})];
  }
  if (
    calledSoFar(request.messages, "TaskList").length > 0 &&
    calledSoFar(request.messages, "TeamDelete").length === 0
  ) {
    return [call("TeamDelete", {})];
  }
  return [text(calledSoFar(request.messages, "TeamDelete").length > 0 ? "The team is done." : "Waiting for the team.")];
};

let home: string;

beforeEach(() => {
  home = realpathSync(tempDir("warden-teams-home-"));
  vi.stubEnv("WARDEN_HOME", home);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

function session(cwd: string, provider: Provider) {
  return createSession({
    provider,
    model: "scripted",
    tools: builtInTools({ teams: true }),
    canUseTool: allowAll,
    cwd,
    transcript: true,
    loadMemory: false,
  });
}

describe("a team of two teammates", () => {
  it("finishes a shared task list: each takes a task, reports, goes idle, approves its shutdown", async () => {
    const cwd = realpathSync(tempDir("warden-teams-"));
    const { provider, requests } = scriptedProvider({
      lead,
      alice: worker("1", "a.txt", "alpha"),
      bob: worker("2", "b.txt", "beta"),
    });
    const s = session(cwd, provider);
    const events = await drain(s.submitMessage("Write a.txt and b.txt with a team."));
    const terminal = events.at(-1);
    expect(terminal).toMatchObject({ type: "terminal", reason: "completed" });

    // The work was done in the project by the teammates' real Bash calls.
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("alpha\n");
    expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("beta\n");

    const results = resultsOf(events);
    expect(results.some((r) => r.startsWith('Team "crew" created'))).toBe(true);
    expect(results.filter((r) => r.startsWith("Spawned teammate"))).toHaveLength(2);
    // The shared list as the lead read it at the end: both tasks completed, owned by who did them.
    const list = results.find((r) => r.includes("#1 [completed]")) ?? "";
    expect(list).toContain("#1 [completed] Write a.txt (owner: alice)");
    expect(list).toContain("#2 [completed] Write b.txt (owner: bob)");
    expect(results.some((r) => r.startsWith('Team "crew" deleted'))).toBe(true);

    // The lead heard the teammates at its next turns: their messages, idle notices and shutdown answers.
    const leadRequests = requests.filter((r) => !r.agent);
    const lastLead = userTexts(leadRequests.at(-1)?.messages ?? []);
    expect(lastLead).toContain('<teammate-message teammate_id="alice" summary="task 1 done">\nTask 1 done: a.txt');
    expect(lastLead).toContain('<teammate-message teammate_id="bob" summary="task 2 done">\nTask 2 done: b.txt');
    expect(lastLead).toMatch(/teammate_id="bob">\n\{"type":"shutdown_response"[^}]*"approve":true/);
    // The teammates got the shutdown request in their conversation.
    const aliceLast = requests.filter((r) => r.agent?.name === "alice").at(-1);
    expect(userTexts(aliceLast?.messages ?? [])).toContain('teammate_id="team-lead">\n{"type":"shutdown_request"');

    // Teammates have SendMessage and the Task tools (deferred: named in the system prompt), not
    // Agent or the team tools; their system prompt tells them their part.
    const aliceTools = (aliceLast?.tools ?? []).map((t) => t.name);
    expect(aliceTools).toContain("Bash");
    expect(aliceTools).not.toContain("Agent");
    expect(aliceLast?.system).toMatch(/SendMessage/);
    expect(aliceLast?.system).toMatch(/TaskUpdate/);
    expect(aliceLast?.system).not.toMatch(/TeamCreate/);
    expect(aliceLast?.system).toContain('You are "alice", a teammate in the team "crew"');

    // Nobody runs any more; the team's folder is gone; the teammates' ends are in their sidechains.
    const runtime = (s as unknown as { subagents: { teams: { members(t: string): Array<{ state: string }> } } })
      .subagents.teams;
    expect(runtime.members("crew").map((m) => m.state)).toEqual(["stopped", "stopped"]);
    const sessionDir = sessionArtifactsDir(cwd, s.sessionId);
    expect(existsSync(join(sessionDir, "teams", "crew"))).toBe(false);
    const spawned = results.filter((r) => r.startsWith("Spawned teammate"));
    for (const line of spawned) {
      const agentId = /agent id (a[0-9a-f]+)/.exec(line)?.[1] ?? "";
      const sidechain = readFileSync(join(sessionDir, "subagents", `${agentId}.jsonl`), "utf8");
      const end = sidechain
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.type === "agent_result");
      expect(end).toMatchObject({ reason: "shutdown", teamName: "crew" });
    }
    s.close();
  }, 60_000);
});

describe("a teammate in plan mode", () => {
  it("cannot write until the lead approves its plan; the approval returns it to the lead's mode", async () => {
    const cwd = realpathSync(tempDir("warden-teams-plan-"));
    let planFile = "";
    const { provider, requests } = scriptedProvider({
      lead: (request) => {
        const seen = userTexts(request.messages);
        if (turnOf(request) === 0) return [call("TeamCreate", { team_name: "crew" })];
        if (turnOf(request) === 1) {
          return [
            call("Agent", {
              team_name: "crew",
              name: "planner",
              description: "plan it",
              prompt: "Plan, then do.",
              mode: "plan",
            }),
          ];
        }
        const asked = /"type":"plan_approval_request","request_id":"(plan-[0-9a-f]+)"/.exec(seen);
        if (asked && calledSoFar(request.messages, "SendMessage").length === 0) {
          return [
            call("SendMessage", {
              to: "planner",
              message: { type: "plan_approval_response", request_id: asked[1], approve: true },
            }),
          ];
        }
        return [text("Waiting.")];
      },
      planner: (request) => {
        const seen = userTexts(request.messages);
        if (seen.includes("Your plan was approved")) {
          return calledSoFar(request.messages, "Write").length < 3
            ? [call("Write", { file_path: join(cwd, "impl.txt"), content: "done\n" })]
            : [text("Implemented.")];
        }
        switch (turnOf(request)) {
          case 0:
            return [call("Write", { file_path: join(cwd, "impl.txt"), content: "too early\n" })];
          case 1:
            // The plan-mode reminder names the teammate's own plan file.
            planFile = /the plan file, (\/\S+planner\.md):/.exec(seen)?.[1] ?? "";
            return [call("Write", { file_path: planFile, content: "1. Write impl.txt\n" })];
          case 2:
            return [call("ExitPlanMode", {})];
          default:
            return [text("Waiting for the lead.")];
        }
      },
    });
    const s = createSession({
      provider,
      model: "scripted",
      tools: builtInTools({ teams: true }),
      // The real engine: plan mode is enforced, asks are denied (nobody to ask headless).
      canUseTool: createCanUseTool({ askHandler: createHeadlessAskHandler() }),
      permissionContext: emptyPermissionContext(cwd, "acceptEdits"),
      cwd,
      transcript: false,
      loadMemory: false,
    });
    const events = await drain(s.submitMessage("Plan and do it with a teammate."));
    expect(events.at(-1)).toMatchObject({ type: "terminal", reason: "completed" });

    const planner = requests.filter((r) => r.agent?.name === "planner");
    const plannerSeen = userTexts(planner.at(-1)?.messages ?? []);
    // Refused before approval (plan mode), the plan file written, the plan sent to the lead.
    expect(plannerSeen).toContain("Write needs approval, and plan mode is read-only");
    expect(planFile).toMatch(/teams\/crew\/plans\/planner\.md$/);
    expect(plannerSeen).toContain("was sent to the team lead for approval");
    // The lead read the plan in the request, answered, and the teammate left plan mode.
    const leadSeen = userTexts(requests.filter((r) => !r.agent).at(-1)?.messages ?? []);
    expect(leadSeen).toContain('"plan":"1. Write impl.txt\\n"');
    expect(plannerSeen).toContain("Your plan was approved: plan mode is off, the permission mode is now acceptEdits");
    expect(readFileSync(join(cwd, "impl.txt"), "utf8")).toBe("done\n");
    s.close();
  }, 60_000);
});
