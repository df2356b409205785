// A plain subagent continued after it ended, through the CLI against the scripted model server:
// SendMessage to its name (in the process that ran it) or its agent id (after --resume) takes it
// up again from its sidechain transcript with the message, in the background, and the lead is
// told when it ends. The continued agent's request carries its whole earlier conversation.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import {
  type RecordedRequest,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { jsonLines } from "./run-cli.js";
import { cliProject, messagesOf, runScriptedCli, type WireMessage, wireText } from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => server.respondWith(undefined));

const TEAMS = { WARDEN_AGENT_TEAMS: "1" };

/** The whole conversation of a request as text (both sides). */
const conversation = (request: RecordedRequest) => messagesOf(request).map(wireText).join("\n");
const isScout = (request: RecordedRequest) => wireText(messagesOf(request)[0] as WireMessage).includes("SCOUT-TASK");

function calls(request: RecordedRequest, name: string): number {
  let count = 0;
  for (const message of messagesOf(request)) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content as Array<{ type: string; name?: string }>)
      if (block.type === "tool_use" && block.name === name) count++;
  }
  return count;
}

/** The task id the last SendMessage result named. */
const taskIdIn = (request: RecordedRequest) =>
  [...conversation(request).matchAll(/in the background as task (\w+)/g)].at(-1)?.[1];

describe("SendMessage to a subagent that ended", () => {
  it("continues it from its transcript in the background, by name and, after --resume, by id", async () => {
    const p = cliProject("continue-agent");
    const scoutRequests: RecordedRequest[] = [];
    const scout = (request: RecordedRequest) => {
      scoutRequests.push(request);
      const said = conversation(request);
      if (said.includes("SECOND-NOTE")) return reply().text("Still LANTERN.");
      if (said.includes("FOLLOW-UP"))
        return calls(request, "Write") === 0
          ? reply().tool("Write", { file_path: join(p.cwd, "word.txt"), content: "LANTERN\n" })
          : reply().text("Wrote LANTERN to word.txt.");
      return reply().text("I will remember LANTERN.");
    };
    server.respondWith((request) => {
      if (isScout(request)) return scout(request);
      if (calls(request, "Agent") === 0)
        return reply().tool("Agent", {
          description: "scout",
          name: "scout",
          prompt: "SCOUT-TASK: remember the word LANTERN",
        });
      if (calls(request, "SendMessage") === 0)
        return reply().tool("SendMessage", { to: "scout", message: "FOLLOW-UP: write the word to word.txt" });
      if (calls(request, "TaskOutput") === 0) return reply().tool("TaskOutput", { task_id: taskIdIn(request) ?? "" });
      return reply().text("Done.");
    });
    const first = await runScriptedCli(server, p, ["-p", "Use a scout", "--permission-mode", "acceptEdits"], TEAMS);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = String(jsonLines(first.stdout)[0]?.session_id);
    expect(readFileSync(join(p.cwd, "word.txt"), "utf8")).toBe("LANTERN\n");
    // The continued run's first request: its own conversation, then the lead's message.
    const continued = scoutRequests.find((r) => conversation(r).includes("FOLLOW-UP")) as RecordedRequest;
    const said = conversation(continued);
    expect(said.indexOf("SCOUT-TASK")).toBeLessThan(said.indexOf("I will remember LANTERN."));
    expect(said.indexOf("I will remember LANTERN.")).toBeLessThan(said.indexOf("FOLLOW-UP"));
    const leadLast = server.requests.at(-1) as RecordedRequest;
    expect(conversation(leadLast)).toMatch(/Agent scout \(a[0-9a-f]+\) had ended; it goes on from its transcript/);
    expect(conversation(leadLast)).toContain("Wrote LANTERN to word.txt.");

    // Its sidechain: the first run, then the continuation after an agent_resumed entry, each ended.
    const subagents = join(p.home, "projects", projectSlug(p.cwd), sessionId, "subagents");
    const agentId = /Agent scout \((a[0-9a-f]+)\)/.exec(conversation(leadLast))?.[1] as string;
    const sidechain = join(subagents, `${agentId}.jsonl`);
    expect(existsSync(sidechain)).toBe(true);
    const kinds = readFileSync(sidechain, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { type: string }).type)
      .filter((type) => type.startsWith("agent"));
    expect(kinds).toEqual(["agent", "agent_result", "agent_resumed", "agent_result"]);

    // A new process: the agent is found by its id in the session's sidechains and goes on again.
    scoutRequests.length = 0;
    server.respondWith((request) => {
      if (isScout(request)) return scout(request);
      const turnsNow = calls(request, "SendMessage");
      if (turnsNow === 1) return reply().tool("SendMessage", { to: agentId, message: "SECOND-NOTE: say it again" });
      if (calls(request, "TaskOutput") === 1) return reply().tool("TaskOutput", { task_id: taskIdIn(request) ?? "" });
      return reply().text("Done again.");
    });
    const second = await runScriptedCli(server, p, ["-p", "Ask the scout again", "--resume", sessionId], TEAMS);
    expect(second.code, second.stderr).toBe(0);
    const again = scoutRequests.at(-1) as RecordedRequest;
    expect(conversation(again)).toContain("Wrote LANTERN to word.txt.");
    expect(conversation(again)).toContain("SECOND-NOTE: say it again");
    expect(conversation(server.requests.at(-1) as RecordedRequest)).toContain("Still LANTERN.");
  }, 120_000);

  it("tells the model when nobody has that name", async () => {
    const p = cliProject("continue-agent-none");
    server.respondWith((request) =>
      calls(request, "SendMessage") === 0
        ? reply().tool("SendMessage", { to: "ghost", message: "hello" })
        : reply().text("Nobody there."),
    );
    const run = await runScriptedCli(server, p, ["-p", "Message a ghost"], TEAMS);
    expect(run.code, run.stderr).toBe(0);
    expect(conversation(server.requests.at(-1) as RecordedRequest)).toContain(
      'You are not in a team and started no subagent named "ghost"',
    );
  }, 60_000);
});
