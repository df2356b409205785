// The plugin format read in process: a project's plugin switches judged on their meaning, short
// names that resolve only when one plugin has them, ${CLAUDE_PLUGIN_ROOT} in hooks and servers, and
// manifest paths that cannot leave the plugin.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ActivePlugin } from "../../src/config/plugins/active.js";
import { pluginComponentPaths, pluginHooks, pluginMcpServers } from "../../src/config/plugins/components.js";
import { readMarketplaceManifest, readPluginManifest } from "../../src/config/plugins/manifest.js";
import { parseMarketplaceSource } from "../../src/config/plugins/marketplaces.js";
import { loadSettings } from "../../src/config/settings.js";
import { discoverSkills } from "../../src/config/skills/discover.js";
import { findCommand } from "../../src/config/skills/types.js";
import { splitProjectSettings } from "../../src/config/trust/split.js";

const ROOT_VARIABLE = "$" + "{CLAUDE_PLUGIN_ROOT}";
const dir = mkdtempSync(join(tmpdir(), "warden-plugin-format-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function plugin(name: string, manifest: Record<string, unknown> = {}): ActivePlugin {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  return { id: `${name}@test`, name, root, manifest: { name, ...manifest } };
}

describe("a project's plugin settings", () => {
  it("keeps a plugin turned off (it only restricts) and holds back one turned on until trust", () => {
    const split = splitProjectSettings({ enabledPlugins: { "a@m": false, "b@m": true } }, "default");
    expect(split.restricting.enabledPlugins).toEqual({ "a@m": false });
    expect(split.widening.enabledPlugins).toEqual({ "b@m": true });
  });

  it("reads nothing for plugins when no settings file turns one on", () => {
    const home = join(dir, "empty-home");
    const saved = { HOME: process.env.HOME, WARDEN_HOME: process.env.WARDEN_HOME };
    process.env.HOME = home;
    process.env.WARDEN_HOME = join(home, ".warden");
    try {
      expect(loadSettings({ cwd: dir }).plugins).toBeUndefined();
      const withDir = loadSettings({ cwd: dir, pluginDirs: [join(dir, "missing")] });
      expect(withDir.plugins?.warnings).toEqual([`--plugin-dir ${join(dir, "missing")}: no such folder`]);
    } finally {
      process.env.HOME = saved.HOME;
      if (saved.WARDEN_HOME === undefined) delete process.env.WARDEN_HOME;
      else process.env.WARDEN_HOME = saved.WARDEN_HOME;
    }
  });
});

describe("plugin commands by short name", () => {
  it("finds a plugin's command by its short name only when one plugin has it; a user's own wins", async () => {
    const one = plugin("one");
    const two = plugin("two");
    write(join(one.root, "commands", "review.md"), "Review one.");
    write(join(one.root, "commands", "solo.md"), "Only one has this.");
    write(join(two.root, "commands", "review.md"), "Review two.");
    const project = join(dir, "project");
    write(join(project, ".claude", "commands", "solo.md"), "The project's own solo.");
    const catalog = await discoverSkills({
      cwd: project,
      projectTrusted: true,
      pluginFolders: [one, two].map((p) => ({
        plugin: p.name,
        skills: [],
        commands: pluginComponentPaths(p, "commands"),
      })),
    });
    expect(findCommand(catalog, "one:review")?.file).toBe(join(one.root, "commands", "review.md"));
    expect(findCommand(catalog, "review")).toBeUndefined();
    expect(findCommand(catalog, "solo")?.file).toBe(join(project, ".claude", "commands", "solo.md"));
    expect(findCommand(catalog, "one:solo")?.file).toBe(join(one.root, "commands", "solo.md"));
    // Each knows whose it is, for the lists that show it.
    expect(findCommand(catalog, "one:review")?.plugin).toBe("one");
    expect(findCommand(catalog, "solo")?.plugin).toBeUndefined();
  });
});

describe("a plugin's hooks and MCP servers", () => {
  it("puts the plugin's folder where the files say CLAUDE_PLUGIN_ROOT", () => {
    const p = plugin("hooked");
    write(
      join(p.root, "hooks", "hooks.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: `${ROOT_VARIABLE}/stop.sh` }] }] } }),
    );
    write(
      join(p.root, ".mcp.json"),
      JSON.stringify({ mcpServers: { tool: { command: `${ROOT_VARIABLE}/server`, args: [`${ROOT_VARIABLE}/x`] } } }),
    );
    const warnings: string[] = [];
    const hook = pluginHooks(p, warnings).Stop?.[0]?.hooks[0];
    const command = hook?.type === "command" ? hook.command : undefined;
    expect(command).toBe(`CLAUDE_PLUGIN_ROOT='${p.root}'; export CLAUDE_PLUGIN_ROOT; ${p.root}/stop.sh`);
    expect(pluginMcpServers(p, warnings)).toEqual({
      plugin_hooked_tool: { command: `${p.root}/server`, args: [`${p.root}/x`], env: { CLAUDE_PLUGIN_ROOT: p.root } },
    });
    expect(warnings).toEqual([]);
  });

  it("reads a plugin's JSON files saved with a byte-order mark, as settings files are read", () => {
    const p = plugin("bom");
    const bom = (value: unknown) => `\uFEFF${JSON.stringify(value)}`;
    write(join(p.root, ".claude-plugin", "plugin.json"), bom({ name: "bom", version: "1.2.3" }));
    write(
      join(p.root, ".claude-plugin", "marketplace.json"),
      bom({ name: "m", owner: { name: "o" }, plugins: [{ name: "bom", source: "./" }] }),
    );
    write(
      join(p.root, "hooks", "hooks.json"),
      bom({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }),
    );
    write(join(p.root, ".mcp.json"), bom({ mcpServers: { tool: { command: "server" } } }));
    expect(readPluginManifest(p.root).version).toBe("1.2.3");
    expect(readMarketplaceManifest(p.root).plugins.map((entry) => entry.name)).toEqual(["bom"]);
    const warnings: string[] = [];
    expect(Object.keys(pluginHooks(p, warnings))).toEqual(["Stop"]);
    expect(Object.keys(pluginMcpServers(p, warnings))).toEqual(["plugin_bom_tool"]);
    expect(warnings).toEqual([]);
  });

  it("names a misspelt hook event and where a malformed hook is, file and field", () => {
    const p = plugin("misspelt", {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "comand", command: "true" }] }] },
    });
    const file = join(p.root, "hooks", "hooks.json");
    write(file, JSON.stringify({ hooks: { UserPromtSubmit: [{ hooks: [{ type: "command", command: "true" }] }] } }));
    const warnings: string[] = [];
    pluginHooks(p, warnings);
    expect(warnings).toEqual([
      `plugin misspelt@test: ${file}: hooks.UserPromtSubmit: Warden does not run this hook event; its hooks will never fire`,
      expect.stringMatching(
        /^plugin misspelt@test: plugin\.json: hooks\.UserPromptSubmit\.0\.hooks\.0\.type: .*; its hooks are not loaded$/,
      ),
    ]);
  });

  it("refuses a manifest path that leaves the plugin's folder", () => {
    write(join(dir, "outside", "steal.md"), "not the plugin's");
    const p = plugin("escaping", { commands: "../outside", hooks: "../outside/hooks.json" });
    const warnings: string[] = [];
    expect(pluginComponentPaths(p, "commands", warnings)).toEqual([]);
    expect(pluginHooks(p, warnings)).toEqual({});
    expect(warnings).toEqual([
      "plugin escaping@test: commands: ../outside leads outside the plugin's folder; skipped",
      "plugin escaping@test: hooks: ../outside/hooks.json leads outside the plugin's folder; not loaded",
    ]);
  });
});

describe("a marketplace source as typed", () => {
  it("is a folder, a git URL with its ref, or owner/repo, and a missing path is never taken for owner/repo", () => {
    mkdirSync(join(dir, "market"), { recursive: true });
    expect(parseMarketplaceSource("./market", dir)).toEqual({ source: "directory", path: join(dir, "market") });
    expect(parseMarketplaceSource("https://host/team/plugins.git#main", dir)).toEqual({
      source: "git",
      url: "https://host/team/plugins.git",
      ref: "main",
    });
    expect(parseMarketplaceSource("team/plugins", dir)).toEqual({ source: "github", repo: "team/plugins" });
    for (const missing of ["./my-marketplace", "../elsewhere/market", "/no/such/market", "~/market"]) {
      expect(() => parseMarketplaceSource(missing, dir)).toThrow(/no such folder/);
    }
  });
});
