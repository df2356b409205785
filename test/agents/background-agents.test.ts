// Background agents and cancellation, in a real session with the built-in tools and real Bash. The
// model is a small in-test provider that answers each request from what it carries (a background
// task's id is only known once the Agent call returned it), main loop and subagent apart by
// ModelRequest.agent.
import { execFileSync } from "node:child_process";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { QueryEvent } from "../../src/loop/events.js";
import { createSession } from "../../src/loop/session.js";
import type { AssistantContentBlock, Message } from "../../src/messages/types.js";
import type { ModelRequest, Provider } from "../../src/providers/types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { allowAll, tempDir } from "../loop/helpers.js";

type Answer = (request: ModelRequest) => AssistantContentBlock[];

function scriptedProvider(main: Answer, child: Answer): { provider: Provider; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    provider: {
      name: "scripted",
      async *stream(request) {
        requests.push({ ...request, messages: structuredClone(request.messages) });
        const blocks = request.agent ? child(request) : main(request);
        for (const block of blocks) yield { type: "block", block };
        yield { type: "stop", stopReason: blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn" };
      },
    },
  };
}

const text = (value: string): AssistantContentBlock => ({ type: "text", text: value });
const call = (id: string, name: string, input: Record<string, unknown>): AssistantContentBlock => ({
  type: "tool_use",
  id,
  name,
  input,
});

/** The text of the tool_result for this tool_use id, in a request's messages. */
function resultText(messages: readonly Message[], toolUseId: string): string | undefined {
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_result" && block.tool_use_id === toolUseId) {
        return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      }
    }
  }
  return undefined;
}

/** Turns of this loop so far (assistant messages in the request). */
const turnOf = (request: ModelRequest) => request.messages.filter((m) => m.role === "assistant").length;

function project(): string {
  const cwd = realpathSync(tempDir("warden-bg-agents-"));
  writeFileSync(join(cwd, "data.txt"), "one\ntwo\nthree\n");
  return cwd;
}

function session(cwd: string, provider: Provider) {
  return createSession({
    provider,
    model: "scripted",
    tools: builtInTools(),
    canUseTool: allowAll,
    cwd,
    transcript: false,
    loadMemory: false,
  });
}

async function drain(events: AsyncGenerator<QueryEvent>): Promise<QueryEvent[]> {
  const all: QueryEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function processesMatching(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

const taskIdIn = (text: string | undefined) => /as task (\w+)/.exec(text ?? "")?.[1];

describe("background agents", () => {
  it("returns a task id at once; TaskOutput waits for the agent and reads its report", async () => {
    const cwd = project();
    const { provider } = scriptedProvider(
      (request) => {
        if (turnOf(request) === 0) {
          return [
            call("m1", "Agent", {
              description: "count lines",
              prompt: "Count",
              subagent_type: "Explore",
              run_in_background: true,
            }),
          ];
        }
        if (turnOf(request) === 1) {
          const id = taskIdIn(resultText(request.messages, "m1"));
          return [call("m2", "TaskOutput", { task_id: id, block: true, timeout: 20_000 })];
        }
        return [text("done")];
      },
      (request) =>
        turnOf(request) === 0
          ? [call("c1", "Bash", { command: "sleep 0.3; wc -l < data.txt" })]
          : [text(`data.txt has ${resultText(request.messages, "c1")?.trim()} lines`)],
    );
    const s = session(cwd, provider);
    const events = await drain(s.submitMessage("go"));
    const results = events.flatMap((e) => (e.type === "tool_result" ? [e.result] : []));
    const launched = String(results.find((r) => r.tool_use_id === "m1")?.content);
    expect(launched).toMatch(/^Started background agent a[0-9a-f]+ \(Explore\) as task \w+\./);
    const output = String(results.find((r) => r.tool_use_id === "m2")?.content);
    expect(output).toContain("<status>completed</status>");
    expect(output).toContain("data.txt has 3 lines");
    expect(s.getAppState().backgroundTasks?.list()).toMatchObject([{ kind: "agent", status: "completed" }]);
  }, 30_000);

  it("tells the model when an agent ends, in the next request", async () => {
    const cwd = project();
    const { provider, requests } = scriptedProvider(
      (request) =>
        turnOf(request) === 0
          ? [call("m1", "Agent", { description: "read data", prompt: "Read", run_in_background: true })]
          : [text("noted")],
      (request) =>
        turnOf(request) === 0
          ? [call("c1", "Read", { file_path: join(cwd, "data.txt") })]
          : [text("It lists one, two, three.")],
    );
    const s = session(cwd, provider);
    await drain(s.submitMessage("start it"));
    const registry = s.getAppState().backgroundTasks;
    const [task] = registry?.list() ?? [];
    await registry?.waitFor(task?.id ?? "", 20_000);
    await drain(s.submitMessage("any news?"));
    const last = requests.filter((r) => !r.agent).at(-1);
    const notification = JSON.stringify(last?.messages.slice(-2));
    expect(notification).toContain("<task-notification>");
    expect(notification).toContain(`Background task ${task?.id}: read data completed.`);
    expect(notification).toContain("It lists one, two, three.");
  }, 30_000);

  it("TaskStop ends a running agent and the command it runs; nothing is left behind", async () => {
    const cwd = project();
    const marker = "sleep 37.25";
    const { provider } = scriptedProvider(
      (request) => {
        if (turnOf(request) === 0) {
          return [call("m1", "Agent", { description: "wait long", prompt: "Wait", run_in_background: true })];
        }
        if (turnOf(request) === 1) {
          return [call("m2", "TaskStop", { task_id: taskIdIn(resultText(request.messages, "m1")) })];
        }
        return [text("stopped it")];
      },
      (request) =>
        turnOf(request) === 0 ? [call("c1", "Bash", { command: `echo start && ${marker}` })] : [text("over")],
    );
    const s = session(cwd, provider);
    // Let the child's command start before the model asks to stop it.
    const events: QueryEvent[] = [];
    for await (const event of s.submitMessage("go")) {
      events.push(event);
      if (event.type === "tool_result" && event.result.tool_use_id === "m1") {
        for (let i = 0; i < 100 && processesMatching(marker).length === 0; i++)
          await new Promise((r) => setTimeout(r, 50));
      }
    }
    const stop = events.flatMap((e) =>
      e.type === "tool_result" && e.result.tool_use_id === "m2" ? [e.result] : [],
    )[0];
    expect(String(stop?.content)).toMatch(/^Stopped background task \w+ \(agent general-purpose: wait long\)\./);
    expect(s.getAppState().backgroundTasks?.list()).toMatchObject([{ kind: "agent", status: "killed" }]);
    expect(processesMatching(marker)).toEqual([]);
  }, 30_000);
});

describe("cancelling the parent", () => {
  it("aborts a foreground subagent and its running command; every call is paired", async () => {
    const cwd = project();
    const marker = "sleep 41.75";
    const { provider } = scriptedProvider(
      (request) =>
        turnOf(request) === 0 ? [call("m1", "Agent", { description: "long job", prompt: "Do it" })] : [text("over")],
      (request) =>
        turnOf(request) === 0 ? [call("c1", "Bash", { command: `echo start && ${marker}` })] : [text("over")],
    );
    const s = session(cwd, provider);
    const events: QueryEvent[] = [];
    const watcher = (async () => {
      for (let i = 0; i < 200 && processesMatching(marker).length === 0; i++)
        await new Promise((r) => setTimeout(r, 25));
      s.abort("user");
    })();
    for await (const event of s.submitMessage("go")) events.push(event);
    await watcher;
    const terminal = events.at(-1);
    expect(terminal).toMatchObject({ type: "terminal" });
    expect(["aborted_tools", "aborted_streaming"]).toContain((terminal as { reason: string }).reason);
    const agentResult = events.flatMap((e) => (e.type === "tool_result" ? [e.result] : []))[0];
    expect(agentResult?.tool_use_id).toBe("m1");
    expect(processesMatching(marker)).toEqual([]);
  }, 30_000);
});
