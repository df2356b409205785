// An MCP server's question in the interactive session: the built binary in tmux, the replay
// provider calling tools of a real MCP server on the official SDK (asking-server.ts) that asks the
// person mid-call. The form is built from the server's schema (defaults filled in, choices,
// check boxes), checked before it goes (required, minimum, email format), and what the server
// receives is read back from the tool's result in the session's transcript.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectDataDir } from "../../src/config/paths.js";
import { TmuxTerminal, terminalsKilledAfterEach } from "../helpers/tmux.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { stdioServerConfig } from "../mcp/fixtures.js";

const terminals = terminalsKilledAfterEach();

const READY = /default mode \(shift\+tab to cycle\)/;

function start(turns: object[]) {
  const home = tempDir("warden-elicit-home-");
  const cwd = tempDir("warden-elicit-project-");
  const script = writeScript(tempDir("warden-elicit-script-"), turns);
  const terminal = TmuxTerminal.start({
    cwd,
    args: [
      "--model",
      `replay:${script}`,
      "--mcp-config",
      JSON.stringify({ mcpServers: { asking: stdioServerConfig("asking-server.ts") } }),
      "--allowedTools",
      "mcp__asking",
    ],
    env: { WARDEN_HOME: home, HOME: home, WARDEN_TOOL_SEARCH: "never" },
    height: 40,
  });
  terminals.push(terminal);
  return { terminal, home, cwd };
}

/** What the MCP tool returned for a call (the server's echo of the answer it received), once known. */
async function toolResult(home: string, cwd: string, id: string): Promise<unknown> {
  const dir = projectDataDir(cwd).replace(/^.*\/projects\//, join(home, "projects/"));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = resultIn(dir, id);
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no result for ${id} in the transcript`);
}

function resultIn(dir: string, id: string): unknown {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  } catch {
    return undefined;
  }
  for (const file of files) {
    for (const line of readFileSync(join(dir, file), "utf8").split("\n").filter(Boolean)) {
      const entry = JSON.parse(line) as { message?: { content?: unknown } };
      const content = entry.message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
        if (block.type !== "tool_result" || block.tool_use_id !== id) continue;
        const parts = Array.isArray(block.content) ? (block.content as Array<{ text?: string }>) : [];
        const raw = typeof block.content === "string" ? block.content : parts.map((p) => p.text ?? "").join("");
        return JSON.parse(raw);
      }
    }
  }
  return undefined;
}

async function submit(terminal: TmuxTerminal, prompt: string): Promise<void> {
  terminal.type(prompt);
  await terminal.waitFor(prompt);
  terminal.press("Enter");
}

describe("MCP elicitation in the interactive session (tmux, real MCP server)", () => {
  it("shows a form from the schema, refuses what does not fit it, and sends what the person accepts", async () => {
    const {
      terminal: t,
      home,
      cwd,
    } = start([
      { content: [toolUse("t1", "mcp__asking__sign_up", {})] },
      { content: [text("Your account is ready.")] },
    ]);
    await t.waitFor(READY);
    await submit(t, "sign me up");
    const form = await t.waitFor("Create your account");
    expect(form).toContain('MCP server "asking" asks');
    // Defaults are filled in: the plan's default choice, the newsletter box ticked.
    expect(form).toMatch(/Plan: ◉ Free\s+○ Pro/);
    expect(form).toMatch(/Newsletter: \[x\] yes/);
    expect(form).toMatch(/Topics: \[ \] news\s+\[ \] tips\s+\[ \] events/);
    expect(form).toMatch(/Email\*:/);

    // A bad email and an age under the minimum: Accept says what is wrong and sends nothing.
    t.type("ada-at-example");
    t.press("Down");
    t.type("12");
    t.press("Down", "Down", "Down", "Down", "Down");
    await t.waitFor(/ Accept /);
    t.press("Enter");
    const refused = await t.waitFor("Email must match format");
    expect(refused).toContain("Age must be >= 18");
    expect(resultIn(projectDataDir(cwd).replace(/^.*\/projects\//, join(home, "projects/")), "t1")).toBeUndefined();

    // Fixed: the focus went back to the email; the age, a choice, a box and a topic are changed.
    for (let i = 0; i < "ada-at-example".length; i++) t.press("BSpace");
    t.type("ada@example.com");
    t.press("Down", "BSpace", "BSpace");
    t.type("36");
    t.press("Down", "Down", "Right", "Down", "Space", "Down", "Right", "Space");
    await t.waitFor(/Topics: \[ \] news\s+\[x\] tips/);
    t.press("Down", "Enter");
    await t.waitFor("Your account is ready.");
    expect(await toolResult(home, cwd, "t1")).toEqual({
      action: "accept",
      content: { email: "ada@example.com", age: 36, plan: "pro", newsletter: false, topics: ["tips"] },
    });
  });

  it("asks before a link is opened, and Esc or Decline answer a form without content", async () => {
    const {
      terminal: t,
      home,
      cwd,
    } = start([
      { content: [toolUse("t1", "mcp__asking__connect_account", {})] },
      { content: [toolUse("t2", "mcp__asking__ask_name", {})] },
      { content: [toolUse("t3", "mcp__asking__ask_name", {})] },
      { content: [text("Noted.")] },
    ]);
    await t.waitFor(READY);
    await submit(t, "connect me");
    const link = await t.waitFor("asks you to open a link");
    expect(link).toContain("Sign in to the example service");
    expect(link).toContain("https://example.com/connect?session=42");
    t.type("1");
    expect(await toolResult(home, cwd, "t1")).toEqual({ action: "accept" });

    const first = await t.waitFor("What is your name?");
    expect(first).toMatch(/language: ◉ en\s+○ fr/);
    t.type("Ada");
    await t.waitFor("name*: Ada");
    t.press("Escape");
    expect(await toolResult(home, cwd, "t2")).toEqual({ action: "cancel" });

    await t.waitFor((screen) => screen.includes("What is your name?") && !screen.includes("name*: Ada"));
    t.press("Down", "Down", "Right", "Enter");
    await t.waitFor("Noted.");
    expect(await toolResult(home, cwd, "t3")).toEqual({ action: "decline" });
  });
});
