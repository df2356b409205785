// An MCP server asking for a completion from the session's model (sampling) in the interactive
// session: the built binary in tmux, the replay provider playing the model (the server's request
// takes the script's next turn, as any request of the session does), and a real MCP server on
// the official SDK (asking-server.ts) calling createMessage inside a tool call. The person sees
// the request and decides; "always" is written to the user's settings; "No" reaches the server
// as a refusal; the completion's tokens are counted in the session's cost on the status line.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptLines, transcriptWhen, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";
import { stdioServerConfig } from "../mcp/fixtures.js";

afterEach(killTerminals);

const args = [
  "--mcp-config",
  JSON.stringify({ mcpServers: { asking: stdioServerConfig("asking-server.ts") } }),
  "--allowedTools",
  "mcp__asking",
  // A dollar a token in: the status line's cost shows which requests were counted.
  "--settings",
  JSON.stringify({ models: { "replay:*": { price: { input: 1_000_000, output: 0 } } } }),
];
const env = { WARDEN_TOOL_SEARCH: "never" };
const usage = (input: number) => ({ input_tokens: input, output_tokens: 0 });

/** The text of a tool's result in the transcript, once it is there. */
async function resultText(p: ReturnType<typeof tuiProject>, id: string): Promise<string | undefined> {
  const find = (lines: Array<Record<string, unknown>>) => {
    for (const line of lines) {
      const content = (line.message as { content?: unknown } | undefined)?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
        if (block.type !== "tool_result" || block.tool_use_id !== id) continue;
        return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      }
    }
    return undefined;
  };
  return find(await transcriptWhen(p, (lines) => find(lines) !== undefined));
}

describe("MCP sampling in the interactive session (tmux, real MCP server)", () => {
  it("asks before the model is called; 'always' is saved and asks no more; the tokens are in the cost", async () => {
    const p = tuiProject([
      { content: [toolUse("t1", "mcp__asking__summarize", {})], usage: usage(1) },
      // The server's first completion.
      { content: [text("Green build.")], usage: usage(100) },
      { content: [toolUse("t2", "mcp__asking__summarize", {})], usage: usage(1) },
      // Its second, sent without asking after "always".
      { content: [text("Still green.")], usage: usage(100) },
      { content: [text("Both summaries are in.")], usage: usage(1) },
    ]);
    const t = p.start(args, env);
    await t.waitFor(READY);
    await submit(t, "summarize the build");
    const prompt = await t.waitFor("asks for a completion from the model");
    expect(prompt).toContain('MCP server "asking"');
    expect(prompt).toContain("System prompt: Be brief.");
    expect(prompt).toContain("user: Summarize: the build is green.");
    expect(prompt).toContain("Up to 100 tokens");
    expect(prompt).toMatch(/2\. Yes, and always for "asking" \(in .*settings\.json\)/);
    // Nothing went to the model yet: the server's call is still waiting for the completion.
    expect(JSON.stringify(transcriptLines(p))).not.toContain('"tool_use_id":"t1"');
    expect(prompt).not.toContain("Green build.");
    const settingsFile = join(p.home, "settings.json");
    expect(existsSync(settingsFile)).toBe(false);

    t.type("2");
    await t.waitFor("Both summaries are in.");
    expect(await resultText(p, "t1")).toContain("Green build.");
    expect(await resultText(p, "t2")).toContain("Still green.");
    expect(JSON.parse(readFileSync(settingsFile, "utf8"))).toEqual({ mcpSamplingServers: ["asking"] });
    // Three turns of the loop (1 token each) and two completions (100 each), a dollar a token.
    await t.waitFor("$203.00");
  }, 90_000);

  it("'No' reaches the server as a refusal, and nothing is saved", async () => {
    const p = tuiProject([
      { content: [toolUse("t1", "mcp__asking__summarize", {})] },
      { content: [text("The server could not get a summary.")] },
    ]);
    const t = p.start(args, env);
    await t.waitFor(READY);
    await submit(t, "summarize the build");
    await t.waitFor("asks for a completion from the model");
    await t.pressInNewDialog("Down", /❯ 2\./);
    t.press("Down");
    await t.waitFor(/❯ 3\./);
    t.press("Enter");
    await t.waitFor("The server could not get a summary.");
    const result = await resultText(p, "t1");
    expect(result).toContain("sampling failed");
    expect(result).toContain("the user declined it");
    expect(existsSync(join(p.home, "settings.json"))).toBe(false);
  }, 90_000);
});
