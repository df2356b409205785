// A team's project settings that name a marketplace (`extraKnownMarketplaces`) and turn its
// plugins on (`enabledPlugins`) set up Warden as they set up Claude Code: once the folder is
// trusted, the session's start installs what is missing, says so in one line, and the plugin's
// command is there in that same session. Before trust nothing is cloned or installed. A marketplace
// that cannot be reached, or a plugin whose manifest is broken, is named with its reason and the
// session still starts.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runCli } from "./run-cli.js";

let dir: string;
let home: string;
let project: string;
let bare: string;

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "pipe" });

/** A marketplace repository `team-market` with `linter` (a command named by a single-file path) and `broken`. */
function writeTeamMarketplace(root: string): void {
  write(
    join(root, ".claude-plugin", "marketplace.json"),
    JSON.stringify({
      name: "team-market",
      owner: { name: "Team" },
      plugins: [
        { name: "linter", source: "./plugins/linter", description: "Lints" },
        { name: "broken", source: "./plugins/broken" },
      ],
    }),
  );
  write(
    join(root, "plugins", "linter", ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "linter", version: "0.3.0", commands: "./extra/lint-all.md" }),
  );
  write(join(root, "plugins", "linter", "extra", "lint-all.md"), "Lint every file named $ARGUMENTS for the team.\n");
  write(join(root, "plugins", "broken", ".claude-plugin", "plugin.json"), "{ not json");
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "warden-plugin-auto-"));
  home = join(dir, "home");
  project = join(dir, "project");
  mkdirSync(home, { recursive: true });
  const work = join(dir, "market-work");
  writeTeamMarketplace(work);
  git(work, "init", "-q");
  git(work, "add", "-A");
  git(work, "commit", "-qm", "marketplace");
  bare = join(dir, "team-market.git");
  git(dir, "clone", "-q", "--bare", work, bare);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
async function session(prompt: string) {
  const script = join(dir, `turn-${++runs}.jsonl`);
  writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "done" }] })}\n`);
  const run = await runCli(["-p", prompt, "--model", `replay:${script}`, "--output-format", "stream-json"], {
    home,
    processCwd: project,
  });
  const init = jsonLines(run.stdout).find((l) => l.type === "system" && l.subtype === "init") as Record<
    string,
    unknown
  >;
  const projectDir = join(home, "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
  const transcript = readFileSync(join(projectDir, `${String(init.session_id)}.jsonl`), "utf8");
  return { run, init, transcript };
}

describe("plugins a project's settings turn on", () => {
  it("installs them at start only once the folder is trusted, and the command works in that session", async () => {
    write(
      join(project, ".claude", "settings.json"),
      JSON.stringify({
        extraKnownMarketplaces: { "team-market": { source: { source: "git", url: `file://${bare}` } } },
        enabledPlugins: { "linter@team-market": true },
      }),
    );
    const untrusted = await session("hi");
    expect(untrusted.run.code).toBe(0);
    expect(untrusted.run.stderr).not.toContain("installed plugin");
    expect(untrusted.run.stderr).toContain("plugin marketplaces: team-market");
    expect(existsSync(join(home, "plugins", "marketplaces", "team-market"))).toBe(false);
    expect(existsSync(join(home, "plugins", "installed_plugins.json"))).toBe(false);

    expect((await runCli(["trust", "--yes", project], { home, processCwd: project })).code).toBe(0);
    const first = await session("/linter:lint-all src");
    expect(first.run.code).toBe(0);
    expect(first.run.stderr).toContain(
      `warden: installed plugin linter@team-market 0.3.0 (turned on in ${join(project, ".claude", "settings.json")})`,
    );
    expect(first.init.slash_commands).toEqual(expect.arrayContaining(["linter:lint-all"]));
    expect(first.transcript).toContain("Lint every file named src for the team.");
    const installed = JSON.parse(readFileSync(join(home, "plugins", "installed_plugins.json"), "utf8"));
    expect(installed.plugins["linter@team-market"][0]).toMatchObject({ scope: "project", projectPath: project });

    // Installed once: the next start just uses it.
    const second = await session("/lint-all lib");
    expect(second.run.stderr).not.toContain("installed plugin");
    expect(second.transcript).toContain("Lint every file named lib for the team.");
  });

  it("names a broken manifest and an unreachable marketplace, and the session still starts", async () => {
    write(
      join(project, ".claude", "settings.json"),
      JSON.stringify({
        extraKnownMarketplaces: {
          "team-market": { source: { source: "git", url: `file://${bare}` } },
          gone: { source: { source: "git", url: `file://${join(dir, "no-such-repo.git")}` } },
        },
        enabledPlugins: { "linter@team-market": true, "broken@team-market": true, "tool@gone": true },
      }),
    );
    expect((await runCli(["trust", "--yes", project], { home, processCwd: project })).code).toBe(0);
    const run = await session("/linter:lint-all docs");
    expect(run.run.code).toBe(0);
    expect(run.run.stderr).toMatch(
      /plugin broken@team-market is turned on in settings but could not be installed: .*broken[/\\]\.claude-plugin[/\\]plugin\.json: invalid JSON .*; the session starts without it/,
    );
    expect(run.run.stderr).toContain(
      `warden: warning: plugin tool@gone is turned on in settings but could not be installed: cannot clone file://${join(dir, "no-such-repo.git")}: '${join(dir, "no-such-repo.git")}' does not appear to be a git repository; the session starts without it\n`,
    );
    expect(run.transcript).toContain("Lint every file named docs for the team.");
  });
});
