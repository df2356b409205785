// An idle SDK session takes a turn by itself when background work ends, as Claude Code's does: the
// host sees the model's answer to the task's notice and a result line of its own, without sending
// anything. With a single prompt (stdin closed after it), the session waits for its background
// agent, takes that turn, then ends. The real Agent SDK, the built CLI, real bash, the scripted
// Anthropic server (its requests show what the model was told).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordedRequest,
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { isResult, RawSession } from "./raw-control.js";
import { Prompts, results, sdkOptions, stderrLines, workspace } from "./sdk-harness.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

type Body = { messages: Array<{ role: string; content: unknown }> };
const messagesOf = (request: RecordedRequest | undefined) => (request?.body as Body | undefined)?.messages ?? [];
/** A result line's text, or its error subtype. */
const resultText = (message: SDKMessage | undefined) =>
  message?.type === "result" ? ("result" in message ? message.result : message.subtype) : undefined;
const options = (ws: ReturnType<typeof workspace>) =>
  sdkOptions(ws, {
    model: "claude-sonnet-4-6",
    permissionMode: "bypassPermissions",
    extraEnv: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
  });

describe("an idle SDK session wakes for what arrives", () => {
  it("answers a background command's end with a turn of its own while the host sends nothing", async () => {
    const ws = workspace();
    const before = server.requests.length;
    server.respondWith(undefined);
    server.enqueue(
      reply().tool(
        "Bash",
        { command: "until [ -e go ]; do sleep 0.05; done; echo built", run_in_background: true, description: "Build" },
        { id: "b1" },
      ),
      reply().text("Started."),
      reply().text("The build finished."),
    );
    const prompts = new Prompts();
    const q = query({ prompt: prompts, options: options(ws) });
    prompts.send("build it in the background");
    const messages: SDKMessage[] = [];
    for await (const message of q) {
      messages.push(message);
      if (message.type !== "result") continue;
      // The prompt is over: only now may the command end, so its notice has no prompt to join.
      if (results(messages).length === 1) writeFileSync(join(ws.cwd, "go"), "");
      else prompts.end();
    }
    const [first, woken] = results(messages);
    expect(resultText(first), stderrLines.join("")).toBe("Started.");
    expect(resultText(woken)).toBe("The build finished.");
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(3);
    // The woken turn's request ends with the task's notice, not with anything the host sent.
    const last = messagesOf(requests[2]).at(-1);
    expect(last?.role).toBe("user");
    expect(JSON.stringify(last?.content)).toMatch(/completed with exit code 0/);
    expect(JSON.stringify(messagesOf(requests[2]))).not.toMatch(
      /build it in the background.*build it in the background/,
    );
  });

  it("after a single prompt, waits for its background agent and takes the turn its end calls for", async () => {
    const ws = workspace();
    const before = server.requests.length;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Requests are told apart by their conversation: the agent's starts with its own prompt.
    server.respondWith((request) => {
      const messages = messagesOf(request);
      if (JSON.stringify(messages[0]).includes("Count the files"))
        return replyFrom(async () => {
          await released;
          return reply().text("There are 3 files.");
        });
      if (messages.length === 1)
        return reply().tool(
          "Agent",
          { description: "count files", prompt: "Count the files", run_in_background: true },
          { id: "a1" },
        );
      if (messages.length === 3) return reply().text("Counting in the background.");
      return reply().text("The agent counted 3 files.");
    });
    const messages: SDKMessage[] = [];
    for await (const message of query({ prompt: "count the files in the background", options: options(ws) })) {
      messages.push(message);
      // The prompt's own result: only now does the agent get its answer.
      if (message.type === "result") release();
    }
    server.respondWith(undefined);
    expect(results(messages).map(resultText), stderrLines.join("")).toEqual([
      "Counting in the background.",
      "The agent counted 3 files.",
    ]);
    const main = server.requests
      .slice(before)
      .filter((r) => !JSON.stringify(messagesOf(r)[0]).includes("Count the files"));
    expect(main).toHaveLength(3);
    const told = JSON.stringify(messagesOf(main[2]).at(-1)?.content);
    expect(told).toContain("task-notification");
    expect(told).toContain("There are 3 files.");
  });
});

describe("Ctrl+C while an idle session waits", () => {
  it("ends the wait for a background agent at the first Ctrl+C, stopping the agent, with exit 130", async () => {
    const ws = workspace();
    // The agent's request is never answered: only the interrupt can end the session's wait.
    let agentAsked: () => void = () => undefined;
    const agentRequest = new Promise<void>((resolve) => (agentAsked = resolve));
    server.respondWith((request) => {
      const messages = messagesOf(request);
      if (JSON.stringify(messages[0]).includes("Count the files"))
        return replyFrom(async () => {
          agentAsked();
          await new Promise(() => undefined);
          return reply().text("never");
        });
      if (messages.length === 1)
        return reply().tool(
          "Agent",
          { description: "count files", prompt: "Count the files", run_in_background: true },
          { id: "a1" },
        );
      return reply().text("Counting in the background.");
    });
    const raw = new RawSession(ws, ["--model", "claude-sonnet-4-6", "--permission-mode", "bypassPermissions"], {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.anthropicBaseURL,
    });
    const firstResult = raw.next(isResult);
    raw.send("count the files in the background");
    raw.endInput();
    expect((await firstResult).result, raw.stderr).toBe("Counting in the background.");
    // The prompt is answered, stdin is closed and the agent still works: the session waits for it.
    await agentRequest;
    raw.signal("SIGINT");
    const ended = await Promise.race([
      raw.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("still waiting 20 s after Ctrl+C"), 20_000)),
    ]);
    server.respondWith(undefined);
    if (ended === "still waiting 20 s after Ctrl+C") raw.signal("SIGKILL");
    expect(ended, raw.stderr).toBe(130);
    // Only the prompt's turn ran: the interrupt took no turn of its own.
    expect(raw.lines.filter(isResult)).toHaveLength(1);
    // The agent was stopped, not left behind, and the host was told.
    const ends = raw.lines.filter((line) => line.type === "system" && line.subtype === "task_notification");
    expect(ends.map((line) => line.status)).toEqual(["stopped"]);
  }, 40_000);
});
