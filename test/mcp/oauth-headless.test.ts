// McpAuth in a headless run (`-p`, the built CLI): the sign-in page it hands out cannot be finished
// once the run has written its result, so the run ends there. Its sign-in window (a listener on
// 127.0.0.1 and a five-minute timer) is closed with the session instead of holding the process for
// five minutes and then killing it with an unhandled rejection; the exit code is the run's own, and
// the result says the sign-in was not completed. The test's own timeout (far below five minutes)
// is what a lingering process fails on.
import { describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { startOAuthFixture } from "./oauth-fixture.js";

describe("McpAuth in a headless run", () => {
  it("ends when the result is written, exits 0, and the result says the sign-in was not completed", async () => {
    const fixture = await startOAuthFixture();
    try {
      const home = tempDir("warden-oauth-p-home-");
      const cwd = tempDir("warden-oauth-p-project-");
      const config = JSON.stringify({ mcpServers: { secure: { type: "http", url: fixture.mcpUrl } } });
      const script = writeScript(tempDir("warden-oauth-p-script-"), [
        { content: [{ type: "tool_use", id: "auth1", name: "mcp__secure__authenticate", input: {} }] },
        { content: [{ type: "text", text: "Please sign in." }] },
      ]);
      const run = await runCli(
        [
          "-p",
          "use the secure server",
          "--model",
          `replay:${script}`,
          "--output-format",
          "stream-json",
          "--verbose",
          "--mcp-config",
          config,
          "--cwd",
          cwd,
        ],
        { home, env: { WARDEN_TOOL_SEARCH: "off" } },
      );
      expect(run.stderr).not.toMatch(/unhandled|uncaught/i);
      expect(run.code).toBe(0);
      const lines = jsonLines(run.stdout);
      const authResult = JSON.stringify(lines.filter((line) => line.type === "user"));
      expect(authResult).toContain("/authorize?");
      expect(authResult).toContain("warden mcp login secure");
      const result = lines.find((line) => line.type === "result") as { is_error: boolean; notices?: string[] };
      expect(result.is_error).toBe(false);
      expect(result.notices).toEqual([expect.stringContaining('sign-in to the MCP server "secure" was not completed')]);
    } finally {
      await fixture.close();
    }
  }, 60_000);
});
