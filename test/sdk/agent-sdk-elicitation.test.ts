// An MCP server's question (elicitation) when Warden runs as the Agent SDK's executable: the real
// SDK (@anthropic-ai/claude-agent-sdk) receives Warden's `elicitation` control request and calls
// the program's onElicitation; its answer reaches the server (a real one on the official MCP SDK,
// asking-server.ts), which echoes it as the tool's result. Without onElicitation the SDK declines.
import { query, type ElicitationRequest as SdkElicitationRequest } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { writeScript } from "../loop/helpers.js";
import { stdioServerConfig } from "../mcp/fixtures.js";
import { collect, results, sdkOptions, workspace } from "./sdk-harness.js";

const toolUse = (id: string, name: string) => ({ type: "tool_use", id, name, input: {} });
const text = (t: string) => ({ type: "text", text: t });

function toolResultText(messages: unknown[], id: string): string {
  for (const message of messages as Array<{ type: string; message?: { content?: unknown } }>) {
    if (message.type !== "user" || !Array.isArray(message.message?.content)) continue;
    for (const block of message.message.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type !== "tool_result" || block.tool_use_id !== id) continue;
      const content = block.content;
      if (typeof content === "string") return content;
      return (content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
    }
  }
  throw new Error(`no result for ${id}`);
}

function options(ws: ReturnType<typeof workspace>, turns: object[]) {
  return sdkOptions(ws, {
    model: `replay:${writeScript(ws.cwd, turns)}`,
    mcpServers: { asking: stdioServerConfig("asking-server.ts") },
    allowedTools: ["mcp__asking"],
    extraEnv: { WARDEN_TOOL_SEARCH: "never" },
  });
}

describe("MCP elicitation through the Agent SDK", () => {
  it("asks onElicitation (form and URL mode) and returns its answers to the server", async () => {
    const ws = workspace();
    const asked: SdkElicitationRequest[] = [];
    const messages = await collect(
      query({
        prompt: "ask me things",
        options: {
          ...options(ws, [
            { content: [toolUse("e1", "mcp__asking__ask_name")] },
            { content: [toolUse("e2", "mcp__asking__connect_account")] },
            { content: [text("all asked")] },
          ]),
          onElicitation: async (request) => {
            asked.push(request);
            return request.mode === "url" ? { action: "accept" } : { action: "accept", content: { name: "Ada" } };
          },
        },
      }),
    );
    expect(asked.map((r) => [r.serverName, r.mode, r.message])).toEqual([
      ["asking", "form", "What is your name?"],
      ["asking", "url", "Sign in to the example service"],
    ]);
    expect(asked[0]?.requestedSchema).toMatchObject({
      type: "object",
      properties: { name: { type: "string" }, language: { enum: ["en", "fr"] } },
      required: ["name"],
    });
    expect(asked[1]).toMatchObject({ url: "https://example.com/connect?session=42", elicitationId: "connect-42" });
    // The form's default for the field the answer left out is filled in before the server gets it.
    expect(JSON.parse(toolResultText(messages, "e1"))).toEqual({
      action: "accept",
      content: { name: "Ada", language: "en" },
    });
    expect(JSON.parse(toolResultText(messages, "e2"))).toEqual({ action: "accept" });
    // The server said the link's question is done: the SDK sees it as a system message.
    expect(messages).toContainEqual(
      expect.objectContaining({ type: "system", subtype: "elicitation_complete", elicitation_id: "connect-42" }),
    );
    expect(results(messages)[0]).toMatchObject({ subtype: "success", result: "all asked" });
  });

  it("an answer that does not fit the server's schema is not sent; no onElicitation declines", async () => {
    const ws = workspace();
    const stderr: string[] = [];
    const bad = await collect(
      query({
        prompt: "ask me",
        options: {
          ...options(ws, [{ content: [toolUse("e1", "mcp__asking__ask_name")] }, { content: [text("ok")] }]),
          stderr: (line) => void stderr.push(line),
          onElicitation: async () => ({ action: "accept", content: { language: "de" } }),
        },
      }),
    );
    expect(JSON.parse(toolResultText(bad, "e1"))).toEqual({ action: "decline" });
    expect(stderr.join("")).toContain("the answer did not match the form");

    const none = await collect(
      query({
        prompt: "ask me",
        options: options(workspace(), [
          { content: [toolUse("e1", "mcp__asking__ask_name")] },
          { content: [text("ok")] },
        ]),
      }),
    );
    expect(JSON.parse(toolResultText(none, "e1"))).toEqual({ action: "decline" });
  });
});
