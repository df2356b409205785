// Teams and agents through the built CLI against a model server on 127.0.0.1: a lead's team (its
// file and shared task list) comes back with --resume; a background agent still running when a
// `-p` session ends is stopped with the command it runs, and its end is recorded in its sidechain.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import {
  type RecordedRequest,
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { jsonLines } from "./run-cli.js";
import { type CliProject, cliProject, messagesOf, resultIn, runScriptedCli } from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.respondWith(undefined);
  expect(server.pendingSteps()).toBe(0);
});

const project = () => cliProject("teams");
const warden = (p: CliProject, args: string[], env: Record<string, string> = {}) =>
  runScriptedCli(server, p, args, env);

function processesMatching(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

describe("a team across --resume", () => {
  it("comes back with its lead and shared task list", async () => {
    const p = project();
    const teams = { WARDEN_AGENT_TEAMS: "1" };
    server.enqueue(
      reply().tool("TeamCreate", { team_name: "crew" }, { id: "create" }),
      reply().tool("TaskCreate", { subject: "Team work", description: "shared" }, { id: "task" }),
      reply().text("Team ready."),
    );
    const first = await warden(p, ["-p", "Make a team"], teams);
    expect(first.code, first.stderr).toBe(0);
    const lines = jsonLines(first.stdout);
    expect(lines[0]?.tools).toEqual(expect.arrayContaining(["TeamCreate", "TeamDelete", "SendMessage", "TaskCreate"]));
    const sessionId = lines[0]?.session_id as string;
    const teamFile = join(p.home, "projects", projectSlug(p.cwd), sessionId, "teams", "crew", "config.json");
    expect(JSON.parse(readFileSync(teamFile, "utf8"))).toMatchObject({
      name: "crew",
      members: [{ name: "team-lead" }],
    });

    const at = server.requests.length;
    server.enqueue(
      reply().tool("TaskList", {}, { id: "list" }),
      reply().tool("TeamCreate", { team_name: "again" }, { id: "again" }),
      reply().text("Still leading."),
    );
    const resumed = await warden(p, ["-p", "Go on", "--resume", sessionId], teams);
    expect(resumed.code, resumed.stderr).toBe(0);
    const last = server.requests.at(-1);
    expect(server.requests.length - at).toBe(3);
    if (!last) throw new Error("no request");
    // The team's list, not the session's own (which is empty), and the lead is still its lead.
    expect(resultIn(last, "list")).toContain("#1 [pending] Team work");
    expect(resultIn(last, "again")).toContain('You already lead the team "crew"');
  });
});

describe("a background agent when a -p session ends", () => {
  it("is stopped with its command, and its end is in its sidechain", async () => {
    const p = project();
    const marker = "sleep 47.5";
    const isChild = (request: RecordedRequest) => JSON.stringify(request.body).includes("SLEEPER-TASK");
    const assistantTurns = (request: RecordedRequest) =>
      messagesOf(request).filter((m) => m.role === "assistant").length;
    server.respondWith((request) => {
      if (isChild(request)) {
        return assistantTurns(request) === 0
          ? reply().tool("Bash", { command: `echo start && ${marker}` }, { id: "sleep" })
          : reply().text("slept");
      }
      if (assistantTurns(request) === 0) {
        return reply().tool(
          "Agent",
          { description: "sleeper", prompt: "SLEEPER-TASK", run_in_background: true },
          { id: "spawn" },
        );
      }
      // The session ends once the agent's command runs.
      return replyFrom(async () => {
        for (let i = 0; i < 200 && processesMatching(marker).length === 0; i++)
          await new Promise((r) => setTimeout(r, 50));
        return reply().text("Started it.");
      });
    });
    const run = await warden(p, ["-p", "Start the sleeper"]);
    expect(run.code, run.stderr).toBe(0);
    expect(processesMatching(marker)).toEqual([]);
    const sessionId = jsonLines(run.stdout)[0]?.session_id as string;
    const subagents = join(p.home, "projects", projectSlug(p.cwd), sessionId, "subagents");
    const [file] = readdirSync(subagents);
    const entries = readFileSync(join(subagents, file ?? ""), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.find((e) => e.type === "agent")).toMatchObject({ description: "sleeper", background: true });
    const end = entries.find((e) => e.type === "agent_result");
    expect(String(end?.reason)).toMatch(/^aborted/);
  });
});
