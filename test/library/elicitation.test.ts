// The library's query() (Warden in one process, the Agent SDK's API) with onElicitation: a real MCP
// server on the official SDK (asking-server.ts) asks mid-call, the callback answers in the SDK's
// shapes, and the server echoes what it received as the tool's result.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { query, type SDKMessage, type SdkElicitationRequest } from "../../src/sdk/index.js";
import { writeScript } from "../loop/helpers.js";
import { stdioServerConfig } from "../mcp/fixtures.js";

beforeAll(() => {
  // The session's files go to a home of this test (the library runs in this process).
  const home = mkdtempSync(join(tmpdir(), "warden-library-elicit-home-"));
  process.env.WARDEN_HOME = home;
  process.env.WARDEN_TOOL_SEARCH = "never";
});

function resultOf(messages: SDKMessage[], id: string): unknown {
  for (const message of messages) {
    if (message.type !== "user" || !Array.isArray(message.message?.content)) continue;
    for (const block of message.message.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type !== "tool_result" || block.tool_use_id !== id) continue;
      const parts = block.content as Array<{ text?: string }>;
      return JSON.parse(typeof block.content === "string" ? block.content : parts.map((p) => p.text ?? "").join(""));
    }
  }
  throw new Error(`no result for ${id}`);
}

describe("query() with onElicitation", () => {
  it("passes a server's form and link questions to the callback and its answers back", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-elicit-"));
    const script = writeScript(cwd, [
      { content: [{ type: "tool_use", id: "e1", name: "mcp__asking__sign_up", input: {} }] },
      { content: [{ type: "tool_use", id: "e2", name: "mcp__asking__connect_account", input: {} }] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const asked: SdkElicitationRequest[] = [];
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt: "sign me up",
      options: {
        cwd,
        model: `replay:${script}`,
        mcpServers: { asking: stdioServerConfig("asking-server.ts") },
        allowedTools: ["mcp__asking"],
        onElicitation: async (request) => {
          asked.push(request);
          if (request.mode === "url") return { action: "decline" };
          return { action: "accept", content: { email: "ada@example.com", age: 40, topics: ["news"] } };
        },
      },
    })) {
      messages.push(message);
    }
    expect(asked.map((r) => [r.serverName, r.mode, r.message])).toEqual([
      ["asking", "form", "Create your account"],
      ["asking", "url", "Sign in to the example service"],
    ]);
    expect(Object.keys((asked[0]?.requestedSchema?.properties ?? {}) as object)).toEqual([
      "email",
      "age",
      "height",
      "plan",
      "newsletter",
      "topics",
    ]);
    expect(asked[1]?.url).toBe("https://example.com/connect?session=42");
    expect(resultOf(messages, "e1")).toEqual({
      action: "accept",
      content: { email: "ada@example.com", age: 40, topics: ["news"], plan: "free", newsletter: true },
    });
    expect(resultOf(messages, "e2")).toEqual({ action: "decline" });
  });
});
