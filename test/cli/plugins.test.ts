// Plugins in Claude Code's format through the real CLI: a marketplace (a local folder, and a bare
// git repository reached by a file:// URL), `warden plugin install`, and a session that runs the
// plugin's command (namespaced and short), offers its agent and skill, fires its hook with
// CLAUDE_PLUGIN_ROOT and starts its MCP server; `disable` takes all of it away; a project's own
// enabledPlugins wait for trust.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "../mcp/fixtures.js";
import { jsonLines, runCli } from "./run-cli.js";

/** What a plugin's files write for their folder, spelled so it is not read as a template here. */
const PLUGIN_ROOT = "$" + "{CLAUDE_PLUGIN_ROOT}";

let dir: string;
let home: string;
let project: string;
let market: string;
let mark: string;

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** A plugin folder named `greeter` with one of everything. */
function writeGreeter(root: string): void {
  write(join(root, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "greeter", version: "1.2.0" }));
  write(
    join(root, "commands", "hello.md"),
    "---\ndescription: Greets\n---\nSay hello to $ARGUMENTS from the greeter plugin.\n",
  );
  write(
    join(root, "agents", "reviewer.md"),
    "---\nname: reviewer\ndescription: Reviews greetings\n---\nYou review greetings.\n",
  );
  write(join(root, "skills", "polish", "SKILL.md"), "---\ndescription: Polishes a greeting\n---\nPolish it.\n");
  write(join(root, "hooks", "mark.sh"), 'printf %s "$CLAUDE_PLUGIN_ROOT" > "$PLUGIN_MARK"\n');
  write(
    join(root, "hooks", "hooks.json"),
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `sh ${PLUGIN_ROOT}/hooks/mark.sh` }] }],
      },
    }),
  );
  write(
    join(root, ".mcp.json"),
    JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [fixturePath("demo-server.ts")] } } }),
  );
}

function writeMarketplace(root: string, name: string): void {
  write(
    join(root, ".claude-plugin", "marketplace.json"),
    JSON.stringify({ name, owner: { name: "Tests" }, plugins: [{ name: "greeter", source: "./plugins/greeter" }] }),
  );
  writeGreeter(join(root, "plugins", "greeter"));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "warden-plugins-"));
  home = join(dir, "home");
  project = join(dir, "project");
  market = join(dir, "market");
  mark = join(dir, "hook-mark.txt");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeMarketplace(market, "team-tools");
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const plugin = (...args: string[]) => runCli(["plugin", ...args], { home, processCwd: project });

let runs = 0;
/** One headless prompt with a model that only answers; returns the init line, the transcript and stderr. */
async function session(prompt: string, extra: string[] = []) {
  const script = join(dir, `turn-${++runs}.jsonl`);
  writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "done" }] })}\n`);
  rmSync(mark, { force: true });
  const run = await runCli(["-p", prompt, "--model", `replay:${script}`, "--output-format", "stream-json", ...extra], {
    home,
    processCwd: project,
    env: { PLUGIN_MARK: mark },
  });
  const lines = jsonLines(run.stdout);
  const init = lines.find((l) => l.type === "system" && l.subtype === "init") as Record<string, unknown>;
  const sessionId = String(init.session_id);
  const projectDir = join(home, "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
  const transcript = readFileSync(join(projectDir, `${sessionId}.jsonl`), "utf8");
  return { run, init, transcript };
}

describe("plugins from a local marketplace", () => {
  it("installs a plugin whose command, agent, skill, hook and MCP server all work, and disable removes them", async () => {
    const added = await plugin("marketplace", "add", market);
    expect(added.stderr).toBe("");
    expect(added.stdout).toContain("Added marketplace team-tools (1 plugin(s))");
    const installed = await plugin("install", "greeter@team-tools");
    expect(installed.code).toBe(0);
    const cache = join(home, "plugins", "cache", "team-tools", "greeter", "1.2.0");
    expect(existsSync(join(cache, "commands", "hello.md"))).toBe(true);
    const settings = JSON.parse(readFileSync(join(home, "settings.json"), "utf8"));
    expect(settings.enabledPlugins).toEqual({ "greeter@team-tools": true });

    const full = await session("/greeter:hello world");
    expect(full.run.code).toBe(0);
    expect(full.init.slash_commands).toEqual(expect.arrayContaining(["greeter:hello"]));
    expect(full.init.skills).toEqual(expect.arrayContaining(["greeter:polish"]));
    expect(full.init.agents).toEqual(expect.arrayContaining(["greeter:reviewer"]));
    expect(full.init.mcp_servers).toEqual(
      expect.arrayContaining([{ name: "plugin_greeter_demo", status: "connected" }]),
    );
    expect(full.init.tools).toEqual(expect.arrayContaining([expect.stringMatching(/^mcp__plugin_greeter_demo__/)]));
    expect(full.transcript).toContain("Say hello to world from the greeter plugin.");
    // The init line names the plugin as Claude Code's does (an SDK host reads `plugins` from it).
    expect(full.init.plugins).toEqual([
      { name: "greeter", path: cache, source: "greeter@team-tools", version: "1.2.0" },
    ]);
    // The hook ran with the plugin's installed folder as CLAUDE_PLUGIN_ROOT.
    expect(readFileSync(mark, "utf8")).toBe(cache);

    const short = await session("/hello there");
    expect(short.transcript).toContain("Say hello to there from the greeter plugin.");

    const disabled = await plugin("disable", "greeter@team-tools");
    expect(disabled.code).toBe(0);
    const off = await session("/hello there");
    expect(off.init.slash_commands).not.toContain("greeter:hello");
    expect(off.init.plugins).toEqual([]);
    expect(off.init.agents).not.toContain("greeter:reviewer");
    expect(off.init.skills).not.toContain("greeter:polish");
    expect(JSON.stringify(off.init.mcp_servers)).not.toContain("plugin_greeter");
    expect(off.transcript).not.toContain("from the greeter plugin");
    expect(existsSync(mark)).toBe(false);
  });

  it("leaves a project's enabledPlugins off until the folder is trusted", async () => {
    // Installed for the user but off there (the test above); the project turns it on.
    write(
      join(project, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "greeter@team-tools": true } }),
    );
    const untrusted = await session("hi");
    expect(untrusted.init.slash_commands).not.toContain("greeter:hello");
    expect(existsSync(mark)).toBe(false);
    expect(untrusted.run.stderr).toContain("enabledPlugins: turns on plugins");

    const trusted = await runCli(["trust", "--yes", project], { home, processCwd: project });
    expect(trusted.code).toBe(0);
    const on = await session("hi");
    expect(on.init.slash_commands).toEqual(expect.arrayContaining(["greeter:hello"]));
    expect(readFileSync(mark, "utf8")).toContain(join("cache", "team-tools", "greeter"));
    rmSync(join(project, ".claude"), { recursive: true, force: true });
  });

  it("loads a folder given with --plugin-dir for that session only", async () => {
    const own = join(dir, "own-plugin");
    writeGreeter(own);
    const run = await session("/greeter:hello you", ["--plugin-dir", own]);
    expect(run.transcript).toContain("Say hello to you from the greeter plugin.");
    expect(readFileSync(mark, "utf8")).toBe(own);
  });
});

describe("plugins from a git marketplace", () => {
  it("adds a marketplace from a bare repository by file:// URL and installs at local scope", async () => {
    const work = join(dir, "git-market");
    writeMarketplace(work, "git-tools");
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "pipe" });
    git(work, "init", "-q");
    git(work, "add", "-A");
    git(work, "commit", "-qm", "marketplace");
    const bare = join(dir, "git-market.git");
    git(dir, "clone", "-q", "--bare", work, bare);

    const added = await plugin("marketplace", "add", `file://${bare}`);
    expect(added.stderr).toBe("");
    expect(added.stdout).toContain("Added marketplace git-tools");
    expect(readdirSync(join(home, "plugins", "marketplaces"))).toContain("git-tools");
    const listed = await plugin("marketplace", "list");
    expect(listed.stdout).toContain(`git-tools  file://${bare}`);

    const installed = await plugin("install", "greeter@git-tools", "--scope", "local");
    expect(installed.code).toBe(0);
    const local = JSON.parse(readFileSync(join(project, ".claude", "settings.local.json"), "utf8"));
    expect(local.enabledPlugins).toEqual({ "greeter@git-tools": true });
    // The folder's own settings file turns it on: that waits for trust like any project setting.
    expect(installed.stdout).toContain("warden trust");
    const waiting = await plugin("list");
    expect(waiting.stdout).toMatch(/off +greeter@git-tools +1\.2\.0 +local/);
    expect(waiting.stdout).toContain("wait until you trust it");
    expect((await runCli(["trust", "--yes", project], { home, processCwd: project })).code).toBe(0);
    const list = await plugin("list");
    expect(list.stdout).toMatch(/on +greeter@git-tools +1\.2\.0 +local/);

    const uninstalled = await plugin("uninstall", "greeter@git-tools", "--scope", "local");
    expect(uninstalled.code).toBe(0);
    expect(existsSync(join(home, "plugins", "cache", "git-tools"))).toBe(true);
    expect(readdirSync(join(home, "plugins", "cache", "git-tools", "greeter"))).toEqual([]);
    expect(
      JSON.parse(readFileSync(join(project, ".claude", "settings.local.json"), "utf8")).enabledPlugins,
    ).toBeUndefined();
  });

  it("names what is wrong with a bad plugin id or an unknown marketplace", async () => {
    const bad = await plugin("install", "no-at-sign");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("expected NAME@MARKETPLACE");
    const unknown = await plugin("install", "greeter@nowhere");
    expect(unknown.stderr).toContain("no marketplace named nowhere");
  });

  it("tells a plugin whose folder is missing from one whose source leaves the marketplace", async () => {
    const odd = join(dir, "odd-market");
    write(
      join(odd, ".claude-plugin", "marketplace.json"),
      JSON.stringify({
        name: "odd",
        owner: { name: "Tests" },
        plugins: [
          { name: "missing", source: "./plugins/missing" },
          { name: "climber", source: "../no-such-place" },
        ],
      }),
    );
    expect((await plugin("marketplace", "add", odd)).code).toBe(0);
    const missing = await plugin("install", "missing@odd");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `missing: its source ./plugins/missing (${join(odd, "plugins", "missing")}) does not exist`,
    );
    const climber = await plugin("install", "climber@odd");
    expect(climber.code).toBe(1);
    expect(climber.stderr).toContain("climber: its source ../no-such-place leaves the marketplace's folder");
  });
});

describe("a plugin whose plugin.json names paths it does not ship", () => {
  it("installs it and warns at install about each missing path, once, naming the field", async () => {
    const sloppy = join(dir, "sloppy-market");
    write(
      join(sloppy, ".claude-plugin", "marketplace.json"),
      JSON.stringify({
        name: "sloppy",
        owner: { name: "Tests" },
        plugins: [{ name: "typo", source: "./plugins/typo" }],
      }),
    );
    const root = join(sloppy, "plugins", "typo");
    write(
      join(root, ".claude-plugin", "plugin.json"),
      JSON.stringify({
        name: "typo",
        version: "0.1.0",
        commands: ["./extra/commands", "./cmds/deploy.md"],
        agents: "./agentz",
        hooks: "./hooks/more-hooks.json",
      }),
    );
    write(join(root, "extra", "commands", "ship.md"), "Ship it.\n");
    expect((await plugin("marketplace", "add", sloppy)).code).toBe(0);
    const installed = await plugin("install", "typo@sloppy");
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain("Installed typo@sloppy 0.1.0");
    const warnings = installed.stderr.split("\n").filter((line) => line.startsWith("warning:"));
    expect(warnings).toEqual([
      "warning: typo@sloppy: plugin.json: commands: ./cmds/deploy.md does not exist in the plugin; it will be skipped",
      "warning: typo@sloppy: plugin.json: agents: ./agentz does not exist in the plugin; it will be skipped",
      "warning: typo@sloppy: plugin.json: hooks: ./hooks/more-hooks.json does not exist in the plugin; it will be skipped",
    ]);
  });
});
