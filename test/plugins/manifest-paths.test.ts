// plugin.json's path fields as Claude Code documents them: `commands`, `agents`, `skills` and
// `outputStyles` name folders or single files beside the default folders; `hooks` and `mcpServers`
// name files, hold the configuration inline, or list both; `${CLAUDE_PLUGIN_ROOT}/x` is `./x`; and a
// path that leaves the plugin (absolute, `..`, a symlink) is refused with its reason, at install too.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { anyAgentFiles } from "../../src/config/agent-dirs.js";
import { loadAgentFiles } from "../../src/config/agent-files.js";
import { loadOutputStyles } from "../../src/config/output-styles.js";
import type { ActivePlugin } from "../../src/config/plugins/active.js";
import {
  escapingManifestPaths,
  pluginComponentPaths,
  pluginHooks,
  pluginMcpServers,
  pluginOutputStylePaths,
  pluginSkillFolders,
} from "../../src/config/plugins/components.js";
import { pluginManifestSchema } from "../../src/config/plugins/manifest.js";
import { discoverSkills } from "../../src/config/skills/discover.js";

const ROOT_VARIABLE = "$" + "{CLAUDE_PLUGIN_ROOT}";
const dir = mkdtempSync(join(tmpdir(), "warden-manifest-paths-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

function plugin(name: string, manifest: Record<string, unknown>): ActivePlugin {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  return { id: `${name}@test`, name, root, manifest: pluginManifestSchema.parse({ name, ...manifest }) };
}

const stopHook = (command: string) => ({ Stop: [{ hooks: [{ type: "command", command }] }] });

describe("plugin.json path fields", () => {
  it("adds single command, agent and style files and extra folders beside the default folders", async () => {
    const p = plugin("paths", {
      commands: ["./extra/deploy.md", `${ROOT_VARIABLE}/more-commands`],
      agents: "./special/reviewer.md",
      skills: "./one-skill",
      outputStyles: "./styles/terse.md",
    });
    write(join(p.root, "commands", "default.md"), "From the default folder.");
    write(join(p.root, "extra", "deploy.md"), "---\ndescription: Deploy it\n---\nDeploy.");
    write(join(p.root, "extra", "not-listed.md"), "Only deploy.md was named.");
    write(join(p.root, "more-commands", "ship.md"), "Ship.");
    write(join(p.root, "special", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews\n---\nReview.");
    write(join(p.root, "one-skill", "SKILL.md"), "---\nname: lone\ndescription: A lone skill\n---\nDo it.");
    write(join(p.root, "styles", "terse.md"), "---\nname: terse\ndescription: Short\n---\nBe brief.");

    const warnings: string[] = [];
    const catalog = await discoverSkills({
      cwd: join(dir, "project"),
      projectTrusted: true,
      pluginFolders: pluginSkillFolders([p], (w) => warnings.push(w)),
    });
    expect(catalog.commands.map((c) => c.name).sort()).toEqual(["paths:default", "paths:deploy", "paths:ship"]);
    expect(catalog.skills.map((s) => s.name)).toEqual(["paths:lone"]);

    const agentDirs = pluginComponentPaths(p, "agents", warnings).map((path) => ({
      dir: path,
      source: "plugin" as const,
      plugin: p.name,
    }));
    expect(anyAgentFiles(join(dir, "project"), agentDirs)).toBe(true);
    const agents = loadAgentFiles({ cwd: join(dir, "project"), projectTrusted: true, pluginDirs: agentDirs });
    expect(agents.definitions.map((a) => a.agentType)).toContain("paths:reviewer");

    const styles = loadOutputStyles(
      join(dir, "project"),
      warnings,
      pluginOutputStylePaths([p], (w) => warnings.push(w)),
    );
    expect(styles.find((s) => s.name === "paths:terse")?.prompt).toBe("Be brief.");
    expect(warnings).toEqual([]);
  });

  it("reads hooks and MCP servers from a file, inline, or a list of both", () => {
    const p = plugin("configs", {
      hooks: ["./config/more-hooks.json", { hooks: stopHook("inline-hook") }],
      mcpServers: [`${ROOT_VARIABLE}/config/servers.json`, { inline: { command: `${ROOT_VARIABLE}/bin/inline` } }],
    });
    write(
      join(p.root, "hooks", "hooks.json"),
      JSON.stringify({ description: "default", hooks: stopHook("default-hook") }),
    );
    write(join(p.root, "config", "more-hooks.json"), JSON.stringify({ hooks: stopHook("file-hook") }));
    write(
      join(p.root, "config", "servers.json"),
      JSON.stringify({ mcpServers: { filed: { command: "filed-server" } } }),
    );
    const warnings: string[] = [];
    const commands = (pluginHooks(p, warnings).Stop ?? []).map((m) => {
      const hook = m.hooks[0];
      return hook?.type === "command" ? hook.command.split("; ").pop() : undefined;
    });
    expect(commands).toEqual(["default-hook", "file-hook", "inline-hook"]);
    const servers = pluginMcpServers(p, warnings);
    expect(Object.keys(servers).sort()).toEqual(["plugin_configs_filed", "plugin_configs_inline"]);
    expect(servers.plugin_configs_inline?.command).toBe(`${p.root}/bin/inline`);
    expect(warnings).toEqual([]);
  });

  it("refuses absolute paths, `..` and symlinks out of the plugin, each with its reason", () => {
    write(join(dir, "secret", "commands", "x.md"), "not the plugin's");
    const p = plugin("escapes", {
      commands: ["/etc", "./../secret/commands", "./linked"],
      hooks: "../secret/hooks.json",
      mcpServers: ["/etc/servers.json"],
      agents: "./missing-agents",
    });
    symlinkSync(join(dir, "secret", "commands"), join(p.root, "linked"));
    const warnings: string[] = [];
    expect(pluginComponentPaths(p, "commands", warnings)).toEqual([]);
    expect(pluginHooks(p, warnings)).toEqual({});
    expect(pluginMcpServers(p, warnings)).toEqual({});
    expect(pluginComponentPaths(p, "agents", warnings)).toEqual([]);
    expect(warnings).toEqual([
      "plugin escapes@test: commands: /etc is absolute; paths must be relative to the plugin (./...); skipped",
      "plugin escapes@test: commands: ./../secret/commands leads outside the plugin's folder; skipped",
      "plugin escapes@test: commands: ./linked leads outside the plugin's folder (a symlink); skipped",
      "plugin escapes@test: hooks: ../secret/hooks.json leads outside the plugin's folder; not loaded",
      "plugin escapes@test: mcpServers: /etc/servers.json is absolute; paths must be relative to the plugin (./...); not loaded",
      "plugin escapes@test: agents: ./missing-agents does not exist in the plugin; skipped",
    ]);
    // Installing checks the same before copying: a missing path may be fine, an escape never is.
    expect(escapingManifestPaths(p.root, p.manifest)).toEqual([
      "/etc is absolute; paths must be relative to the plugin (./...)",
      "./../secret/commands leads outside the plugin's folder",
      "./linked leads outside the plugin's folder (a symlink)",
      "../secret/hooks.json leads outside the plugin's folder",
      "/etc/servers.json is absolute; paths must be relative to the plugin (./...)",
    ]);
  });
});
