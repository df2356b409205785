// /mcp in the interactive session: the built binary in tmux, a project whose .mcp.json names a
// real MCP server on the official SDK (demo-server.ts). The person trusts the folder, then from
// /mcp approves the server (remembered in the local settings), turns it off and on (remembered there
// too, for later sessions in the folder), and reconnects it, choosing with the arrow keys and Enter. The replay model calls the server's tool around each
// change: the call fails while the server is off (its tools left the model's list) and works again
// once it is back.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, transcriptLines, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";
import { stdioServerConfig } from "../mcp/fixtures.js";

afterEach(() => killTerminals());

const READY = /default mode \(shift\+tab to cycle\)/;

/** The text of the tool result for a call, from the session's transcript, once it is there. */
async function resultText(p: ReturnType<typeof tuiProject>, id: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    for (const line of transcriptLines(p)) {
      const content = (line.message as { content?: unknown } | undefined)?.content;
      if (!Array.isArray(content)) continue;
      const block = (content as Array<{ type: string; tool_use_id?: string; content?: unknown }>).find(
        (b) => b.type === "tool_result" && b.tool_use_id === id,
      );
      if (block) return JSON.stringify(block.content);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no result for ${id} in the transcript`);
}

describe("/mcp in the interactive session (tmux, real MCP server)", () => {
  it("approves a project server, disables, enables and reconnects it with arrows and Enter", async () => {
    const p = tuiProject(
      [
        { content: [toolUse("on1", "mcp__demo__echo", { text: "first call" })] },
        { content: [text("Echoed once.")] },
        { content: [toolUse("off", "mcp__demo__echo", { text: "while off" })] },
        { content: [text("It is gone.")] },
        { content: [toolUse("on2", "mcp__demo__echo", { text: "back again" })] },
        { content: [text("Echoed again.")] },
      ],
      { ".mcp.json": JSON.stringify({ mcpServers: { demo: stdioServerConfig("demo-server.ts") } }) },
    );
    const t = p.start(["--allowedTools", "mcp__demo"], { WARDEN_TOOL_SEARCH: "never" });
    await t.waitFor("Do you trust the files in this folder?");
    t.type("1");
    await t.waitFor(READY);

    // Listed, waiting for approval; picked with Enter, approved with Enter.
    t.type("/mcp");
    await t.waitFor("/mcp");
    t.press("Enter");
    const list = await t.waitFor("MCP servers: pick one to act on");
    expect(list).toMatch(/❯ 1\. demo · awaiting approval/);
    t.press("Enter");
    await t.waitFor("Approve (remembered for this folder) and start it");
    t.press("Enter");
    const approved = await t.waitFor(/Approved demo · connected · \d+ tools/, 30_000);
    expect(approved).toMatch(/tools: echo, search_issues/);
    const local = JSON.parse(readFileSync(join(p.cwd, ".warden/settings.local.json"), "utf8"));
    expect(local.enabledMcpjsonServers).toEqual(["demo"]);

    t.type("echo please");
    t.press("Enter");
    await t.waitFor("Echoed once.");
    expect(await resultText(p, "on1")).toContain("first call");

    // Disable: the second choice, reached with the down arrow.
    t.type("/mcp");
    await t.waitFor("/mcp");
    t.press("Enter");
    await t.waitFor("MCP servers: pick one to act on");
    t.press("Enter");
    await t.waitFor("Disable (remembered for this folder)");
    t.press("Down");
    await t.waitFor(/❯ 2\. Disable \(remembered for this folder\)/);
    t.press("Enter");
    await t.waitFor("Disabled demo · disabled");
    const localNow = () => JSON.parse(readFileSync(join(p.cwd, ".warden/settings.local.json"), "utf8"));
    expect(localNow()).toMatchObject({ enabledMcpjsonServers: ["demo"], disabledMcpServers: ["demo"] });
    t.type("echo while off");
    t.press("Enter");
    await t.waitFor("It is gone.");
    expect(await resultText(p, "off")).toMatch(/mcp__demo__echo/);
    expect(await resultText(p, "off")).not.toContain("while off");

    // Enable, then reconnect: both through the list.
    t.type("/mcp");
    await t.waitFor("/mcp");
    t.press("Enter");
    await t.waitFor(/❯ 1\. demo · disabled/);
    t.press("Enter");
    await t.waitFor(/❯ 1\. Enable \(remembered for this folder\)/);
    t.press("Enter");
    await t.waitFor(/Enabled demo · connected · \d+ tools/, 30_000);
    expect(localNow().disabledMcpServers).toBeUndefined();
    expect(localNow().enabledMcpjsonServers).toEqual(["demo"]);
    t.type("/mcp");
    await t.waitFor("/mcp");
    t.press("Enter");
    await t.waitFor(/❯ 1\. demo · connected/);
    t.press("Enter");
    await t.waitFor(/❯ 1\. Reconnect/);
    t.press("Enter");
    await t.waitFor(/Reconnected demo · connected · \d+ tools/, 30_000);
    t.type("echo again");
    t.press("Enter");
    await t.waitFor("Echoed again.");
    expect(await resultText(p, "on2")).toContain("back again");
  }, 120_000);
});
