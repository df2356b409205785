// Subagents across --resume, through the CLI against a model server on 127.0.0.1: each subagent's
// transcript is a sidechain of the session, and a resumed session takes back what matters of it.
// A background agent that ended in the first process is a task again, its output read by
// TaskOutput; a teammate whose session ended goes on from its sidechain when the lead messages it.
// The main conversation reaches the model as it was.
import { readFileSync, writeFileSync } from "node:fs";
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
import {
  assistantTurns,
  type CliProject,
  cliProject,
  messagesOf,
  resultIn,
  runScriptedCli,
  type WireMessage,
} from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => server.respondWith(undefined));

function project(): CliProject {
  const p = cliProject("resume-agents");
  writeFileSync(join(p.cwd, "data.txt"), "one\ntwo\nthree\n");
  return p;
}

const warden = (p: CliProject, args: string[], env: Record<string, string> = {}) =>
  runScriptedCli(server, p, args, env);

/** The messages without cache markers (they move to the newest messages from request to request). */
function bare(messages: readonly WireMessage[]): unknown {
  return JSON.parse(JSON.stringify(messages, (key, value) => (key === "cache_control" ? undefined : value)));
}

function entriesOf(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function sessionDir(p: CliProject, sessionId: string): string {
  return join(p.home, "projects", projectSlug(p.cwd), sessionId);
}

describe("a background agent across --resume", () => {
  it("is listed again as a task whose output TaskOutput reads; the conversation comes back unchanged", async () => {
    const p = project();
    // The agent's conversation starts with its prompt (the lead's holds it only in its Agent call).
    const isChild = (request: RecordedRequest) => JSON.stringify(messagesOf(request)[0]).includes("COUNTER-TASK");
    const taskIdIn = (text: string) => /as task (\w+)/.exec(text)?.[1] ?? "";
    let taskId = "";
    server.respondWith((request) => {
      if (isChild(request)) {
        return assistantTurns(request) === 0
          ? reply().tool("Bash", { command: "wc -l < data.txt" }, { id: "count" })
          : reply().text(`COUNTED: data.txt has ${resultIn(request, "count").trim()} lines`);
      }
      const turn = assistantTurns(request);
      if (turn === 0) {
        return reply().tool(
          "Agent",
          { description: "count lines", prompt: "COUNTER-TASK: count data.txt", run_in_background: true },
          { id: "spawn" },
        );
      }
      if (turn === 1) {
        taskId = taskIdIn(resultIn(request, "spawn"));
        return reply().tool("TaskOutput", { task_id: taskId, block: true, timeout: 60_000 }, { id: "wait" });
      }
      return reply().text("Counted.");
    });
    const first = await warden(p, ["-p", "Count the lines of data.txt"]);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = jsonLines(first.stdout)[0]?.session_id as string;
    const lastOfFirst = server.requests.filter((r) => !isChild(r)).at(-1);
    expect(taskId).toMatch(/^b[0-9a-f]+$/);
    expect(resultIn(lastOfFirst as RecordedRequest, "wait")).toContain("COUNTED: data.txt has 3 lines");

    // The sidechain: who the agent was, its task, and its own conversation marked as a sidechain.
    const agentLines = server.requests.filter(isChild);
    expect(agentLines.length).toBeGreaterThan(0);
    const dir = sessionDir(p, sessionId);
    const spawnResult = resultIn(lastOfFirst as RecordedRequest, "spawn");
    const agentId = /background agent (a[0-9a-f]+)/.exec(spawnResult)?.[1];
    const sidechain = entriesOf(join(dir, "subagents", `${agentId}.jsonl`));
    expect(sidechain.find((e) => e.type === "agent")).toMatchObject({
      description: "count lines",
      background: true,
      taskId,
      outputPath: join(dir, "tasks", `${taskId}.output`),
    });
    const messageLines = sidechain.filter((e) => e.type === "user" || e.type === "assistant");
    expect(messageLines.length).toBe(4);
    expect(messageLines.every((e) => e.isSidechain === true && e.agentId === agentId)).toBe(true);
    expect(sidechain.at(-1)).toMatchObject({ type: "agent_result", reason: "completed" });

    const before = server.requests.length;
    server.respondWith((request) =>
      resultIn(request, "again") === ""
        ? reply().tool("TaskOutput", { task_id: taskId, block: false }, { id: "again" })
        : reply().text("It is still there."),
    );
    const resumed = await warden(p, ["-p", "What did the counter say?", "--resume", sessionId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const second = server.requests.slice(before);
    expect(second.length).toBe(2);
    expect(second.some(isChild)).toBe(false);
    // The main conversation reaches the model as the first process left it, then the new prompt.
    const earlier = messagesOf(lastOfFirst as RecordedRequest);
    const now = messagesOf(second[0] as RecordedRequest);
    expect(bare(now.slice(0, earlier.length))).toEqual(bare(earlier));
    expect(JSON.stringify(now.slice(earlier.length))).toContain("Counted.");
    expect(JSON.stringify(now.at(-1))).toContain("What did the counter say?");
    // The agent's task is listed again and TaskOutput reads what it wrote.
    const read = resultIn(second[1] as RecordedRequest, "again");
    expect(read).toContain(`<task_id>${taskId}</task_id>`);
    expect(read).toContain("<status>completed</status>");
    expect(read).toContain("COUNTED: data.txt has 3 lines");
  }, 120_000);
});

describe("a teammate across --resume", () => {
  it("goes on from its sidechain when the resumed lead messages it", async () => {
    const p = project();
    const teams = { WARDEN_AGENT_TEAMS: "1" };
    // The worker writes with Bash redirections: edits in the project, allowed in acceptEdits mode.
    const allow = ["--permission-mode", "acceptEdits"];
    const isWorker = (request: RecordedRequest) =>
      JSON.stringify((request.body as { system?: unknown }).system ?? "").includes("a teammate in the team");
    server.respondWith((request) => {
      if (isWorker(request)) {
        if (JSON.stringify(messagesOf(request)).includes("NEXT-STEP")) {
          return resultIn(request, "w2") === ""
            ? reply().tool("Bash", { command: "echo two >> w.txt" }, { id: "w2" })
            : reply().text("APPENDED two");
        }
        return resultIn(request, "w1") === ""
          ? reply().tool("Bash", { command: "echo one > w.txt" }, { id: "w1" })
          : reply().text("WROTE one");
      }
      const turn = assistantTurns(request);
      if (turn === 0) return reply().tool("TeamCreate", { team_name: "crew" }, { id: "create" });
      if (turn === 1) {
        return reply().tool(
          "Agent",
          { description: "writer", prompt: "WORKER-TASK: write w.txt", team_name: "crew", name: "worker" },
          { id: "spawn" },
        );
      }
      return reply().text("Noted.");
    });
    const first = await warden(p, ["-p", "Get w.txt written", ...allow], teams);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(p.cwd, "w.txt"), "utf8")).toBe("one\n");
    const sessionId = jsonLines(first.stdout)[0]?.session_id as string;
    const workerFirst = server.requests.filter(isWorker);
    const lastWorkerRequest = workerFirst.at(-1) as RecordedRequest;
    // Its last request of the first process: after its write.
    expect(resultIn(lastWorkerRequest, "w1")).toBe("(no output)");
    const team = join(sessionDir(p, sessionId), "teams", "crew", "config.json");
    const worker = (
      JSON.parse(readFileSync(team, "utf8")) as {
        members: Array<{ name: string; agentId: string; active: boolean; transcriptPath?: string }>;
      }
    ).members.find((m) => m.name === "worker");
    expect(worker).toMatchObject({ active: false });
    expect(worker?.transcriptPath).toBe(join(sessionDir(p, sessionId), "subagents", `${worker?.agentId}.jsonl`));

    const before = server.requests.length;
    server.respondWith((request) => {
      if (isWorker(request)) {
        if (resultIn(request, "w2") === "") return reply().tool("Bash", { command: "echo two >> w.txt" }, { id: "w2" });
        return reply().text("APPENDED two");
      }
      return resultIn(request, "msg") === ""
        ? reply().tool(
            "SendMessage",
            { to: "worker", message: "NEXT-STEP: append two to w.txt", summary: "append two to w.txt" },
            { id: "msg" },
          )
        : reply().text("Done.");
    });
    const resumed = await warden(p, ["-p", "Go on", "--resume", sessionId, ...allow], teams);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(p.cwd, "w.txt"), "utf8")).toBe("one\ntwo\n");
    const second = server.requests.slice(before);
    const sent = second.find((r) => !isWorker(r) && resultIn(r, "msg") !== "") as RecordedRequest;
    expect(resultIn(sent, "msg")).toContain("Taken up again from their transcripts (their session had ended): worker.");

    // Its first request goes on from its conversation of the first process, then reads the message.
    const workerAgain = second.filter(isWorker);
    expect(workerAgain.length).toBe(2);
    const earlier = messagesOf(lastWorkerRequest);
    const now = messagesOf(workerAgain[0] as RecordedRequest);
    expect(bare(now.slice(0, earlier.length))).toEqual(bare(earlier));
    const after = JSON.stringify(now.slice(earlier.length));
    expect(after).toContain("WROTE one");
    expect(after).toContain("NEXT-STEP: append two to w.txt");
    // The same system prompt: the same teammate in the same team.
    expect((workerAgain[0]?.body as { system: unknown } | undefined)?.system).toEqual(
      (lastWorkerRequest.body as { system: unknown }).system,
    );

    // One sidechain file, continued: a resume line, both stretches' messages, an end for each process.
    const sidechain = entriesOf(worker?.transcriptPath as string);
    expect(sidechain.filter((e) => e.type === "agent")).toHaveLength(1);
    expect(sidechain.filter((e) => e.type === "resume")).toHaveLength(1);
    expect(sidechain.filter((e) => e.type === "agent_resumed")).toHaveLength(1);
    expect(sidechain.filter((e) => e.type === "agent_result")).toHaveLength(2);
    const texts = JSON.stringify(sidechain.filter((e) => e.type === "assistant"));
    expect(texts).toContain("WROTE one");
    expect(texts).toContain("APPENDED two");
  }, 180_000);
});
