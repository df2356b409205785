// TeammateIdle for a teammate in process mode: its turn ends in its own `warden teammate` process,
// and the lead runs its TeammateIdle hooks (a real shell script from the lead's settings) and says
// whether it goes idle. Exit code 2 keeps it working with the hook's reason; the next end lets it go.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { jsonLines } from "./run-cli.js";
import { assistantTurns, cliProject, heard, runScriptedCli, whoAsks } from "./scripted-cli.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

describe("TeammateIdle for a process teammate", () => {
  it("the lead's hook keeps it working once with its reason, then lets it go idle", async () => {
    const p = cliProject("teammate-process-idle");
    const log = join(p.home, "idle.log");
    const once = join(p.home, "blocked-once");
    const hook = join(p.home, "idle.sh");
    // The processes the hook ran under: the lead's, never a teammate's.
    const ancestry = join(p.home, "ancestry.log");
    writeFileSync(
      hook,
      `#!/usr/bin/env bash\ncat >> '${log}'; echo >> '${log}'\npid=$$; while [ "$pid" -gt 1 ]; do ps -o args= -p "$pid" >> '${ancestry}'; pid=$(ps -o ppid= -p "$pid" | tr -d ' '); done\nif [ ! -e '${once}' ]; then touch '${once}'; echo 'write the summary too' >&2; exit 2; fi\n`,
    );
    chmodSync(hook, 0o755);
    const settings = join(p.home, "lead-settings.json");
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { TeammateIdle: [{ hooks: [{ type: "command", command: hook }] }] } }),
    );
    let aliceHeard = "";
    let deleted = false;
    server.respondWith((request) => {
      if (whoAsks(request) === "alice") {
        aliceHeard = heard(request);
        return assistantTurns(request) === 0 ? reply().text("alice first pass") : reply().text("alice summary done");
      }
      const lead = heard(request);
      const turn = assistantTurns(request);
      if (turn === 0) return reply().tool("TeamCreate", { team_name: "crew" });
      if (turn === 1)
        return reply().tool("Agent", { team_name: "crew", name: "alice", description: "alice", prompt: "Do it." });
      if (deleted) return reply().text("The team is done.");
      if (lead.includes("alice summary done")) {
        deleted = true;
        return reply().tool("TeamDelete", {});
      }
      return reply().text("Waiting for the team.");
    });
    const run = await runScriptedCli(
      server,
      p,
      ["-p", "Run the team", "--teammate-mode", "process", "--settings", settings],
      { WARDEN_AGENT_TEAMS: "1" },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "result", result: "The team is done." });
    // Run twice, by the lead only (the teammate's process runs none of its own): blocked, then let go.
    expect(existsSync(log)).toBe(true);
    const inputs = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toMatchObject({ hook_event_name: "TeammateIdle", teammate_name: "alice", team_name: "crew" });
    const parents = readFileSync(ancestry, "utf8");
    expect(parents).toMatch(/ -p Run the team /);
    expect(parents).not.toMatch(/ teammate --input-format stream-json/);
    expect(aliceHeard).toContain("A TeammateIdle hook asked you to keep working: write the summary too");
  }, 120_000);
});
