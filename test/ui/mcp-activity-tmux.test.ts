// What an MCP server does while its tool runs, in the interactive session: the built binary in
// tmux, the replay provider playing the model, a real MCP server on the official SDK
// (asking-server.ts). Its warnings and errors appear at once as a dimmed line (the rest only in
// the session's log file), and its progress notifications are the running tool's progress line.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectDataDir } from "../../src/config/paths.js";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";
import { stdioServerConfig } from "../mcp/fixtures.js";

afterEach(killTerminals);

const args = (settings: object = {}) => [
  "--mcp-config",
  JSON.stringify({ mcpServers: { asking: stdioServerConfig("asking-server.ts") } }),
  "--allowedTools",
  "mcp__asking",
  "--settings",
  JSON.stringify(settings),
];
const env = { WARDEN_TOOL_SEARCH: "never" };

/** The session's MCP log file (one session per project here). */
function logFile(p: ReturnType<typeof tuiProject>): string {
  const dir = projectDataDir(p.cwd).replace(/^.*\/projects\//, join(p.home, "projects/"));
  const sessions = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  expect(sessions).toHaveLength(1);
  return readFileSync(join(dir, (sessions[0] as { name: string }).name, "mcp-servers.log"), "utf8");
}

describe("an MCP server's logs and progress in the interactive session (tmux, real MCP server)", () => {
  it("shows a server's error as a dimmed line at once and keeps lower levels in the log file only", async () => {
    const p = tuiProject([{ content: [toolUse("t1", "mcp__asking__log_twice", {})] }, { content: [text("Logged.")] }]);
    const t = p.start(args({ mcpLogLevel: "debug" }), env);
    await t.waitFor(READY);
    await submit(t, "log something");
    const screen = await t.waitFor("Logged.");
    expect(screen).toContain('MCP server "asking" error: a failure');
    expect(screen).not.toContain("a detail");
    // Shown when it came, during the tool call, not with the notices at the prompt's end.
    expect(screen.indexOf("a failure")).toBeLessThan(screen.indexOf("Logged."));
    // Dimmed: the faint attribute just before the line.
    expect(t.screen(true)).toMatch(/\x1b\[2m[^\n]*MCP server "asking" error: a failure/);
    const log = logFile(p);
    expect(log).toMatch(/asking debug: a detail/);
    expect(log).toMatch(/asking error: a failure/);
  }, 90_000);

  it("shows the tool's progress notifications on its running line", async () => {
    const p = tuiProject([]);
    const gate = join(p.cwd, "go");
    writeFileSync(
      p.script,
      `${[{ content: [toolUse("t1", "mcp__asking__wait_for_file", { path: gate })] }, { content: [text("Finished.")] }]
        .map((turn) => JSON.stringify(turn))
        .join("\n")}\n`,
    );
    const t = p.start(args(), env);
    await t.waitFor(READY);
    await submit(t, "index it");
    const running = await t.waitFor("⎿ Indexing the repository (1/3)");
    expect(running).toContain("asking - wait_for_file (MCP)");
    writeFileSync(gate, "");
    const done = await t.waitFor("Finished.");
    expect(done).not.toContain("Indexing the repository");
  }, 90_000);
});
