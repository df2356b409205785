// `--teammate-mode tmux`: a lead running inside tmux (a real tmux server of the test's own) shows
// each teammate in a pane beside it while the teammate works (its process of its own, its calls
// and results followed from its transcript), and closes the pane when the teammate stops. Built
// CLI, scripted model server on 127.0.0.1.
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  reply,
  replyFrom,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { TmuxTerminal } from "../helpers/tmux.js";
import { assistantTurns, cliProject, heard, whoAsks } from "./scripted-cli.js";

let server: ScriptedModelServer;
const terminals: TmuxTerminal[] = [];
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.respondWith(undefined);
  for (const terminal of terminals.splice(0)) terminal.kill();
});

async function until<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("teammates in tmux panes", () => {
  it("shows a working teammate in a pane of its own and closes the pane when it stops", async () => {
    const p = cliProject("teammate-tmux");
    let terminal: TmuxTerminal | undefined;
    const panes = () => terminal?.command("list-panes", "-F", "#{pane_id}").trim().split("\n") ?? [];
    let teammatePane = "";
    let paneWhileWorking = "";
    server.respondWith((request) => {
      if (whoAsks(request) === "alice") {
        if (assistantTurns(request) === 0) return reply().tool("Bash", { command: "echo PANE-MARK-7" });
        // Before answering again: what alice's pane shows of her call and its result.
        return replyFrom(async () => {
          paneWhileWorking =
            (await until(() => {
              const screen = teammatePane ? (terminal?.command("capture-pane", "-p", "-t", teammatePane) ?? "") : "";
              return /PANE-MARK-7[\s\S]*PANE-MARK-7/.test(screen) ? screen : undefined;
            })) ?? (teammatePane ? (terminal?.command("capture-pane", "-p", "-t", teammatePane) ?? "") : "no pane");
          return reply().text("alice is done.");
        });
      }
      const said = heard(request);
      if (!said.includes("crew")) return reply().tool("TeamCreate", { team_name: "crew" });
      if (!said.includes("Spawned teammate")) {
        return reply().tool("Agent", { team_name: "crew", name: "alice", description: "alice", prompt: "Mark." });
      }
      // The teammate's pane is open while it works.
      if (!teammatePane) teammatePane = panes().slice(1)[0] ?? "";
      if (said.includes('teammate_id="alice"') && !said.includes("deleted")) return reply().tool("TeamDelete", {});
      if (said.includes("deleted")) return reply().text("The team is done.");
      return reply().text("Waiting.");
    });
    terminal = TmuxTerminal.start({
      cwd: p.cwd,
      args: [
        "-p",
        "Run the team",
        "--model",
        "anthropic:claude-test",
        "--teammate-mode",
        "tmux",
        "--permission-mode",
        "bypassPermissions",
      ],
      env: {
        WARDEN_HOME: p.home,
        HOME: p.home,
        WARDEN_MANAGED_SETTINGS: join(p.home, "no-policy.json"),
        WARDEN_AGENT_TEAMS: "1",
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      },
      width: 160,
      height: 40,
    });
    terminals.push(terminal);
    expect(await terminal.exitCode(60_000), terminal.screen()).toBe(0);
    expect(terminal.screen()).toContain("The team is done.");
    // Alice's pane showed her name and team, her call and its output while she worked.
    expect(teammatePane).toMatch(/^%\d+$/);
    expect(paneWhileWorking).toContain("alice (crew)");
    expect(paneWhileWorking).toMatch(/⏺ Bash\(.*echo PANE-MARK-7/);
    expect(paneWhileWorking).toMatch(/⎿ PANE-MARK-7/);
    // She stopped with the team: her pane is gone, the lead's alone remains.
    expect(panes()).toHaveLength(1);
  }, 90_000);
});
