// MCP servers' log messages in the interactive session: which are shown, which only written to
// the session's log file (a real file in a temp folder), and how a noisy server is capped.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SHOWN_PER_SERVER, serverLogNotices } from "../../src/cli/interactive/server-log-notices.js";
import { tempDir } from "../loop/helpers.js";

describe("serverLogNotices", () => {
  it("shows warnings and worse, writes every level to the log file, including what came before the file was known", () => {
    const notices = serverLogNotices({ verbose: false });
    let told = 0;
    notices.subscribe(() => told++);
    notices.onServerLog({ server: "db", level: "info", data: "connected" });
    notices.onServerLog({ server: "db", level: "error", logger: "pool", data: { code: 7, why: "gone" } });
    expect(notices.drain()).toEqual(['MCP server "db" [pool] error: {"code":7,"why":"gone"}']);
    expect(told).toBe(1);
    expect(notices.drain()).toEqual([]);
    const file = join(tempDir("warden-logs-"), "session", "mcp-servers.log");
    notices.setLogFile(file);
    notices.onServerLog({ server: "db", level: "debug", data: "multi\nline" });
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines.map((l) => l.replace(/^\S+ /, ""))).toEqual([
      "db info: connected",
      'db [pool] error: {"code":7,"why":"gone"}',
      "db debug: multi line",
    ]);
  });

  it("shows lower levels too with --verbose, and caps a server that keeps logging", () => {
    const notices = serverLogNotices({ verbose: true });
    notices.setLogFile(join(tempDir("warden-logs-"), "mcp-servers.log"));
    for (let i = 0; i < SHOWN_PER_SERVER + 5; i++) notices.onServerLog({ server: "chatty", level: "info", data: i });
    notices.onServerLog({ server: "quiet", level: "warning", data: "disk low" });
    const shown = notices.drain();
    expect(shown).toHaveLength(SHOWN_PER_SERVER + 2);
    expect(shown[0]).toBe('MCP server "chatty" info: 0');
    expect(shown[SHOWN_PER_SERVER]).toMatch(
      /"chatty" keeps logging; its further messages are only in .*mcp-servers\.log/,
    );
    expect(shown.at(-1)).toBe('MCP server "quiet" warning: disk low');
  });
});
