// The Setup hook event through the built CLI: --init-only runs the Setup hooks (trigger init) and
// exits without a session; --maintenance (and --init) run them before the session, their
// additionalContext reaching the model and their CLAUDE_ENV_FILE exports its Bash commands.
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { tempDir } from "../loop/helpers.js";
import { runCli } from "./run-cli.js";

const server = scriptedModelServerFixture("file");

/** Settings whose Setup hooks log their input: one per trigger, and a SessionStart hook that marks it ran. */
function setupProject(): { cwd: string; settings: string } {
  const cwd = realpathSync(tempDir("warden-setup-hook-"));
  const log = (name: string) => `cat >> '${join(cwd, name)}'; echo >> '${join(cwd, name)}'`;
  const context = (text: string) =>
    `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "Setup", additionalContext: text } })}'`;
  const settings = join(cwd, "hook-settings.json");
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        Setup: [
          {
            matcher: "init",
            hooks: [{ type: "command", command: `${log("init.log")}; ${context("deps installed")}` }],
          },
          {
            matcher: "maintenance",
            hooks: [
              {
                type: "command",
                command: `${log("maintenance.log")}; echo 'export FROM_SETUP=cache-warm' >> "$CLAUDE_ENV_FILE"; ${context("caches rebuilt")}`,
              },
            ],
          },
        ],
        SessionStart: [{ hooks: [{ type: "command", command: log("session-start.log") }] }],
      },
    }),
  );
  return { cwd, settings };
}

function inputsLogged(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the Setup hook event", () => {
  it("--init-only runs the init hooks and exits: no model, no session, no SessionStart", async () => {
    const { cwd, settings } = setupProject();
    const run = await runCli(["--init-only", "--cwd", cwd, "--settings", settings], {
      home: tempDir("warden-setup-home-"),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(inputsLogged(join(cwd, "init.log"))).toEqual([
      expect.objectContaining({ hook_event_name: "Setup", trigger: "init", cwd, session_id: expect.any(String) }),
    ]);
    // What would have reached the model is shown to whoever ran the set-up.
    expect(run.stdout).toContain("deps installed");
    expect(existsSync(join(cwd, "maintenance.log"))).toBe(false);
    expect(existsSync(join(cwd, "session-start.log"))).toBe(false);
  }, 60_000);

  it("--init-only exits 1 when a Setup hook fails, saying why", async () => {
    const cwd = realpathSync(tempDir("warden-setup-fail-"));
    const settings = JSON.stringify({
      hooks: { Setup: [{ hooks: [{ type: "command", command: "echo 'npm ci failed' >&2; exit 1" }] }] },
    });
    const run = await runCli(["--init-only", "--cwd", cwd, "--settings", settings], {
      home: tempDir("warden-setup-home-"),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("npm ci failed");
  }, 60_000);

  it("-p --maintenance runs the maintenance hooks before the session: context for the model, env for Bash", async () => {
    const { cwd, settings } = setupProject();
    server.enqueue(reply().tool("Bash", { command: "echo value=$FROM_SETUP" }), reply().text("done"));
    const run = await runCli(
      [
        "-p",
        "go",
        "--maintenance",
        "--model",
        "anthropic:claude-sonnet-4-5",
        "--cwd",
        cwd,
        "--settings",
        settings,
        "--allowedTools",
        "Bash(echo:*)",
      ],
      {
        home: tempDir("warden-setup-home-"),
        env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(inputsLogged(join(cwd, "maintenance.log"))).toEqual([
      expect.objectContaining({ hook_event_name: "Setup", trigger: "maintenance" }),
    ]);
    expect(existsSync(join(cwd, "init.log"))).toBe(false);
    // The session went on after Setup: SessionStart ran, and the model was asked.
    expect(inputsLogged(join(cwd, "session-start.log"))).toHaveLength(1);
    const [first, second] = server.requests.slice(-2).map((request) => JSON.stringify(request.body));
    expect(first).toContain("caches rebuilt");
    expect(second).toContain("value=cache-warm");
  }, 60_000);

  it("refuses two Setup flags at once", async () => {
    const run = await runCli(["-p", "hi", "--init", "--maintenance"], { home: tempDir("warden-setup-home-") });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("use one of --init, --init-only and --maintenance");
  }, 60_000);
});
