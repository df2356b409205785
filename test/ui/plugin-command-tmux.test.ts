// /plugin in the interactive session: the built binary in tmux, a marketplace folder the test
// builds in Claude Code's format. The person adds the marketplace with `/plugin marketplace add`,
// then with the arrows and Enter browses it, installs a plugin and applies it to the running
// session (a reload on the same conversation): the plugin's command expands and its hook runs at
// once. The same list turns it off (its command is gone after the reload) and uninstalls it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, transcriptWhen, tuiProject, writeIn } from "../helpers/tui-project.js";
import { tempDir, text } from "../loop/helpers.js";

afterEach(() => killTerminals());

const PLUGIN_ROOT = "$" + "{CLAUDE_PLUGIN_ROOT}";

function writeMarketplace(root: string): void {
  writeIn(
    root,
    ".claude-plugin/marketplace.json",
    JSON.stringify({
      name: "team-tools",
      owner: { name: "Tests" },
      plugins: [{ name: "greeter", source: "./plugins/greeter", description: "Greets people" }],
    }),
  );
  writeIn(root, "plugins/greeter/.claude-plugin/plugin.json", JSON.stringify({ name: "greeter", version: "1.0.0" }));
  writeIn(
    root,
    "plugins/greeter/commands/hello.md",
    "---\ndescription: Greets\n---\nSay hello to $ARGUMENTS from greeter.\n",
  );
  writeIn(root, "plugins/greeter/hooks/mark.sh", 'printf %s "$CLAUDE_PLUGIN_ROOT" > "$PLUGIN_MARK"\n');
  writeIn(
    root,
    "plugins/greeter/hooks/hooks.json",
    JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `sh ${PLUGIN_ROOT}/hooks/mark.sh` }] }] },
    }),
  );
}

describe("/plugin in the interactive session (tmux)", () => {
  it("browses a marketplace, installs and applies a plugin without restarting, then turns it off and uninstalls it", async () => {
    const market = tempDir("warden-tui-market-");
    writeMarketplace(market);
    const mark = join(tempDir("warden-tui-mark-"), "mark.txt");
    const p = tuiProject([{ content: [text("Greeted.")] }, { content: [text("Plain answer.")] }]);
    const t = p.start([], { PLUGIN_MARK: mark, WARDEN_REPLAY_CONTINUE: "1" });
    await t.waitFor(READY);

    t.type(`/plugin marketplace add ${market}`);
    await t.waitFor("/plugin marketplace add");
    t.press("Enter");
    await t.waitFor("Added marketplace team-tools (1 plugin(s))");

    t.type("/plugin");
    await t.waitFor("/plugin");
    t.press("Enter");
    await t.waitFor(/❯ 1\. Browse marketplace team-tools \(1 plugins\)/);
    t.press("Enter");
    await t.waitFor(/❯ 1\. greeter - Greets people/);
    t.press("Enter");
    await t.waitFor(/❯ 1\. Install for you, in every folder/);
    t.press("Enter");
    await t.waitFor("Apply the change to this session now?", 30_000);
    t.press("Enter");
    const reloaded = await t.waitFor("Reloaded the session with its plugins: greeter@team-tools", 30_000);
    expect(reloaded).toContain("/greeter:hello");
    const settings = JSON.parse(readFileSync(join(p.home, "settings.json"), "utf8"));
    expect(settings.enabledPlugins).toEqual({ "greeter@team-tools": true });

    // In force in this same session: the command expands and the plugin's hook ran.
    t.type("/greeter:hello world");
    await t.waitFor("/greeter:hello world");
    t.press("Enter");
    await t.waitFor("Greeted.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("Say hello to world from greeter."));
    expect(JSON.stringify(lines)).toContain("Say hello to world from greeter.");
    expect(readFileSync(mark, "utf8")).toBe(join(p.home, "plugins", "cache", "team-tools", "greeter", "1.0.0"));

    // Turned off from the same list (the installed plugin comes first), applied at once.
    t.type("/plugin");
    await t.waitFor("/plugin");
    t.press("Enter");
    await t.waitFor(/❯ 1\. on +greeter@team-tools +1\.0\.0 \(user\)/);
    t.press("Enter");
    await t.waitFor(/❯ 1\. Turn off \(in the user settings\)/);
    t.press("Enter");
    await t.waitFor("Apply the change to this session now?");
    t.press("Enter");
    await t.waitFor("Reloaded the session with its plugins: none turned on.", 30_000);
    expect(JSON.parse(readFileSync(join(p.home, "settings.json"), "utf8")).enabledPlugins).toEqual({
      "greeter@team-tools": false,
    });

    // Uninstalled: the second action; left for the next session this time.
    t.type("/plugin");
    await t.waitFor("/plugin");
    t.press("Enter");
    await t.waitFor(/❯ 1\. off +greeter@team-tools/);
    t.press("Enter");
    await t.waitFor(/2\. Uninstall/);
    t.press("Down");
    await t.waitFor(/❯ 2\. Uninstall/);
    t.press("Enter");
    await t.waitFor("Apply the change to this session now?");
    t.press("Down");
    await t.waitFor(/❯ 2\. Later/);
    t.press("Enter");
    const later = await t.waitFor(/Uninstalled greeter@team-tools \(user\); removed it from/);
    expect(later.replace(/\s+/g, " ")).toContain("It applies from the next session (or /plugin reload).");
    const installed = JSON.parse(readFileSync(join(p.home, "plugins", "installed_plugins.json"), "utf8"));
    expect(installed.plugins["greeter@team-tools"]).toBeUndefined();
    expect(existsSync(join(p.home, "plugins", "cache", "team-tools", "greeter", "1.0.0"))).toBe(false);
  }, 120_000);
});
