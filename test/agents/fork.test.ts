// Fork subagents through the real CLI against a model server on 127.0.0.1: the child's first
// request is the parent's last one byte for byte up to the fork point (the cache breakpoint the
// parent put on its newest block), and the system prompt and tool list after the messages are the
// same bytes too; the child's own messages follow. A fork cannot fork again.
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.pendingSteps()).toBe(0));

const CACHE_MARK = ',"cache_control":{"type":"ephemeral"}';

function warden(cwd: string, home: string) {
  return runCli(
    [
      "-p",
      "Look at a.txt, then fork",
      "--model",
      "anthropic:claude-test",
      "--output-format",
      "stream-json",
      "--cwd",
      cwd,
    ],
    {
      home,
      env: {
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
        WARDEN_MANAGED_SETTINGS: join(home, "no-policy.json"),
        WARDEN_FORK_SUBAGENT: "1",
      },
    },
  );
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

describe("fork", () => {
  it("sends the parent's last request byte for byte, then the fork's own messages", async () => {
    const cwd = realpathSync(tempDir("warden-fork-"));
    const home = tempDir("warden-fork-home-");
    writeFileSync(join(cwd, "a.txt"), "alpha\n");
    server.enqueue(
      reply().tool("Read", { file_path: join(cwd, "a.txt") }, { id: "toolu_read" }),
      reply()
        .text("I will fork a helper.")
        .tool("Agent", { description: "summarise a", prompt: "Summarise a.txt in one line." }, { id: "toolu_fork" }),
      // The fork child.
      reply().text(
        "Scope: summarise a.txt\nResult: it says alpha\nKey files: a.txt:1\nFiles changed: none\nIssues: none",
      ),
      reply().text("The fork says a.txt says alpha."),
    );
    const run = await warden(cwd, home);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ result: "The fork says a.txt says alpha." });

    const [, parent, child] = server.requests.slice(-4);
    const parentRaw = parent?.rawBody ?? "";
    const childRaw = child?.rawBody ?? "";
    // The fork point: where the parent marked its newest block as the cache breakpoint (the first
    // mark: the messages come before the system prompt, which carries one of its own).
    const forkPoint = parentRaw.indexOf(CACHE_MARK);
    expect(forkPoint).toBeLessThan(parentRaw.indexOf('],"stream":true'));
    expect(forkPoint).toBeGreaterThan(0);
    const common = commonPrefix(parentRaw, childRaw);
    expect(common).toBeGreaterThanOrEqual(forkPoint);
    // After the messages: the same system prompt and tool list, byte for byte.
    const tail = (raw: string) => raw.slice(raw.indexOf('],"stream":true'));
    expect(tail(childRaw)).toBe(tail(parentRaw));
    expect(tail(parentRaw)).toContain('"system":');
    expect(tail(parentRaw)).toContain('"tools":');

    // The child's own part: the parent's assistant message whole, a placeholder for its call, the directive.
    const parentBody = parent?.body as { messages: Array<{ role: string; content: unknown[] }> };
    const childBody = child?.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const added = childBody.messages.slice(parentBody.messages.length);
    expect(added[0]).toMatchObject({
      role: "assistant",
      content: [
        { type: "text", text: "I will fork a helper." },
        { type: "tool_use", id: "toolu_fork", name: "Agent" },
      ],
    });
    expect(added[1]?.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_fork",
      content: "Fork started -- processing in background",
    });
    expect(String(added[1]?.content[1]?.text)).toMatch(
      /^<fork-boilerplate>[\s\S]*<\/fork-boilerplate>\n\nSummarise a\.txt in one line\.$/,
    );

    // The parent got the fork's report as the Agent call's result.
    const last = server.requests.at(-1)?.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(last.messages.at(-1))).toContain("Result: it says alpha");
  }, 30_000);

  it("refuses a fork's own fork (the guard in its messages and its query source)", async () => {
    const cwd = realpathSync(tempDir("warden-fork2-"));
    const home = tempDir("warden-fork2-home-");
    server.enqueue(
      reply().tool("Agent", { description: "outer", prompt: "Fork again." }, { id: "toolu_1" }),
      reply().tool("Agent", { description: "inner", prompt: "Nested." }, { id: "toolu_2" }),
      reply().text("Scope: x\nResult: could not fork\nKey files: none\nFiles changed: none\nIssues: none"),
      reply().text("done"),
    );
    const run = await warden(cwd, home);
    expect(run.code).toBe(0);
    const childSecond = server.requests.at(-2)?.body as {
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    const refusal = childSecond.messages.at(-1)?.content.find((b) => b.tool_use_id === "toolu_2");
    expect(refusal).toMatchObject({ is_error: true });
    expect(String(refusal?.content)).toContain("You are a fork: you cannot fork again");
  }, 30_000);
});

describe("the fork guards", () => {
  it("each guard alone marks a fork: the query source, or the boilerplate in the messages", async () => {
    const { forkMessages, isInForkChild } = await import("../../src/tools/agent/fork.js");
    const { FORK_QUERY_SOURCE } = await import("../../src/tool/agents.js");
    const parentMessage = {
      role: "assistant" as const,
      content: [{ type: "tool_use" as const, id: "t1", name: "Agent", input: {} }],
    };
    expect(isInForkChild({ querySource: FORK_QUERY_SOURCE, messages: [] })).toBe(true);
    // After a compaction rewrote the messages, the query source still holds...
    expect(
      isInForkChild({
        querySource: FORK_QUERY_SOURCE,
        messages: [{ role: "user", content: [{ type: "text", text: "summary" }] }],
      }),
    ).toBe(true);
    // ...and a resumed fork transcript carries the boilerplate without the query source.
    expect(isInForkChild({ querySource: undefined, messages: forkMessages(parentMessage, "do it") })).toBe(true);
    expect(
      isInForkChild({
        querySource: "agent:Explore",
        messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      }),
    ).toBe(false);
  });
});
