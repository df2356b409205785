// The library's query() (Warden in one process) has the Agent SDK's setMcpServers(): it replaces
// the servers added at run time, process servers (a real stdio server on the official MCP SDK,
// demo-server.ts, and one that dies at start) and in-process ones (createSdkMcpServer, whose
// handler runs in this process), answering in the SDK's McpSetServersResult shape. The replay model
// calls the tools of the servers added; an empty set removes them again and ends their processes.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSdkMcpServer, query, type SDKMessage, tool } from "../../src/sdk/index.js";
import { writeScript } from "../loop/helpers.js";
import { childPids, stdioServerConfig } from "../mcp/fixtures.js";
import { openPrompt, resultText } from "./prompt-stream.js";

beforeAll(() => {
  process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-library-set-servers-home-"));
  // The tools added are sent to the model at once, so the replay can call them without ToolSearch.
  process.env.WARDEN_TOOL_SEARCH = "never";
});

/** An in-process server with one tool that records its calls here. */
function inProcess(name: string, toolName: string, calls: string[]) {
  return createSdkMcpServer({
    name,
    version: "1.0.0",
    tools: [
      tool(toolName, `Answers from ${name}.`, { word: z.string() }, async ({ word }) => {
        calls.push(`${name}:${word}`);
        return { content: [{ type: "text", text: `${name} heard ${word}` }] };
      }),
    ],
  });
}

describe("query().setMcpServers() in one process", () => {
  it("adds process and in-process servers, reports failures, replaces and removes them", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-set-servers-"));
    const script = writeScript(cwd, [
      {
        content: [
          { type: "tool_use", id: "d1", name: "mcp__demo__echo", input: { text: "via a process server" } },
          { type: "tool_use", id: "s1", name: "mcp__second__pong", input: { word: "hello" } },
        ],
      },
      { content: [{ type: "text", text: "both answered" }] },
    ]);
    const calls: string[] = [];
    const input = openPrompt("call both", true);
    const q = query({
      prompt: input.prompt,
      options: {
        cwd,
        model: `replay:${script}`,
        allowedTools: ["mcp__demo", "mcp__second", "mcp__first"],
        mcpServers: { first: inProcess("first", "ping", calls) },
      },
    });
    const messages: SDKMessage[] = [];
    const run = (async () => {
      for await (const message of q) messages.push(message);
    })();
    const childrenBefore = childPids();

    const added = await q.setMcpServers({
      demo: stdioServerConfig("demo-server.ts"),
      broken: stdioServerConfig("exit-at-start.ts"),
      second: inProcess("second", "pong", calls),
    });
    // The in-process server of the options, not named, is replaced, as the Agent SDK does.
    expect(added).toMatchObject({ added: ["broken", "demo", "second"], removed: ["first"] });
    expect(Object.keys(added.errors)).toEqual(["broken"]);
    expect(added.errors.broken).toMatch(/missing API token/);
    const statuses = await q.mcpServerStatus();
    expect(statuses.map((s) => [s.name, s.status]).sort()).toEqual([
      ["broken", "failed"],
      ["demo", "connected"],
      ["second", "connected"],
    ]);

    input.send();
    while (!messages.some((m) => m.type === "result")) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resultText(messages, "d1")).toContain("via a process server");
    expect(resultText(messages, "s1")).toContain("second heard hello");
    // The in-process handler ran here; the one removed never did.
    expect(calls).toEqual(["second:hello"]);

    // Named again unchanged: left alone; a bad entry is reported and changes nothing else.
    const again = await q.setMcpServers({
      demo: stdioServerConfig("demo-server.ts"),
      second: inProcess("second", "pong", calls),
      bad: { type: "http", url: "not a url" } as never,
    });
    expect(again.added).toEqual([]);
    expect(again.removed).toEqual(["broken"]);
    expect(Object.keys(again.errors)).toEqual(["bad"]);

    const removed = await q.setMcpServers({});
    expect(removed.removed.sort()).toEqual(["demo", "second"]);
    expect(removed.added).toEqual([]);
    expect(await q.mcpServerStatus()).toEqual([]);
    // The demo server's process is gone with it.
    expect(childPids().filter((pid) => !childrenBefore.includes(pid))).toEqual([]);

    await expect(q.setMcpServers("nonsense" as never)).rejects.toThrow(/servers must be an object/);
    input.end();
    await run;
  }, 120_000);
});
