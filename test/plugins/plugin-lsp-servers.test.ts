// A plugin's language servers as Claude Code's plugin reference lays them out: `.lsp.json` at the
// root and plugin.json `lspServers` (a file, inline, or a list of both), read into the LSP tool's
// server list with `${CLAUDE_PLUGIN_ROOT}` filled in; a malformed entry is named and the rest load;
// a plugin's server comes after the built-in and the user's own, and settings can turn it off.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ActivePlugin } from "../../src/config/plugins/active.js";
import { escapingManifestPaths } from "../../src/config/plugins/components.js";
import { activePluginLspServers, pluginLspServers } from "../../src/config/plugins/lsp-servers.js";
import { pluginManifestSchema } from "../../src/config/plugins/manifest.js";

const ROOT_VARIABLE = "$" + "{CLAUDE_PLUGIN_ROOT}";
const dir = mkdtempSync(join(tmpdir(), "warden-plugin-lsp-servers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function plugin(name: string, manifest: Record<string, unknown>): ActivePlugin {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  return { id: `${name}@test`, name, root, manifest: pluginManifestSchema.parse({ name, ...manifest }) };
}

describe("a plugin's language servers", () => {
  it("reads .lsp.json, a named file and inline entries, with the plugin's folder filled in", () => {
    const p = plugin("langs", {
      lspServers: ["./config/more.json", { inline: { command: "inline-ls", extensionToLanguage: { ".in": "inl" } } }],
    });
    write(
      join(p.root, ".lsp.json"),
      JSON.stringify({
        go: {
          command: `${ROOT_VARIABLE}/bin/gopls`,
          args: ["serve", `--config=${ROOT_VARIABLE}/gopls.json`],
          extensionToLanguage: { ".go": "go" },
          env: { GOFLAGS: "-mod=mod" },
          settings: { gopls: { staticcheck: true } },
          startupTimeout: 5000,
          restartOnCrash: true,
        },
      }),
    );
    write(
      join(p.root, "config", "more.json"),
      JSON.stringify({ rust: { command: "rust-analyzer", extensionToLanguage: { ".rs": "rust" } } }),
    );
    const warnings: string[] = [];
    const servers = pluginLspServers(p, warnings);
    expect(warnings).toEqual([]);
    expect(Object.keys(servers).sort()).toEqual(["plugin:langs:go", "plugin:langs:inline", "plugin:langs:rust"]);
    expect(servers["plugin:langs:go"]).toEqual({
      command: `${p.root}/bin/gopls`,
      args: ["serve", `--config=${p.root}/gopls.json`],
      extensions: [".go"],
      languageIds: { ".go": "go" },
      env: { CLAUDE_PLUGIN_ROOT: p.root, GOFLAGS: "-mod=mod" },
      settings: { gopls: { staticcheck: true } },
      startupTimeout: 5000,
    });
  });

  it("names each entry it cannot use, with the plugin, the file and the field, and loads the rest", () => {
    const p = plugin("mixed", {
      lspServers: [{ nomap: { command: "x" }, emptymap: { command: "x", extensionToLanguage: {} } }, "/etc/lsp.json"],
    });
    write(
      join(p.root, ".lsp.json"),
      JSON.stringify({
        good: { command: "good-ls", extensionToLanguage: { ".gd": "gd" } },
        nodot: { command: "x", extensionToLanguage: { go: "go" } },
        socketed: { command: "x", transport: "socket", extensionToLanguage: { ".sk": "sk" } },
        wrongtype: { command: 3, extensionToLanguage: { ".w": "w" } },
      }),
    );
    const warnings: string[] = [];
    const servers = pluginLspServers(p, warnings);
    expect(Object.keys(servers)).toEqual(["plugin:mixed:good"]);
    const file = join(p.root, ".lsp.json");
    const manifest = join(p.root, ".claude-plugin", "plugin.json");
    expect(warnings).toEqual([
      `plugin mixed@test: ${file}: language server "nodot": extensionToLanguage.go: "go" is not an extension with its dot (".go"); it is not loaded`,
      `plugin mixed@test: ${file}: language server "socketed" uses the socket transport, which Warden does not support (stdio only); it is not loaded`,
      expect.stringMatching(
        new RegExp(`^plugin mixed@test: ${file}: language server "wrongtype": command: .*; it is not loaded$`),
      ),
      expect.stringMatching(
        new RegExp(
          `^plugin mixed@test: ${manifest}: language server "nomap": extensionToLanguage: required, missing; it is not loaded$`,
        ),
      ),
      `plugin mixed@test: ${manifest}: language server "emptymap": extensionToLanguage: extensionToLanguage names no extension; it is not loaded`,
      "plugin mixed@test: lspServers: /etc/lsp.json is absolute; paths must be relative to the plugin (./...); not loaded",
    ]);
    // Installing refuses the same escape before copying anything.
    expect(escapingManifestPaths(p.root, p.manifest)).toEqual([
      "/etc/lsp.json is absolute; paths must be relative to the plugin (./...)",
    ]);
    // A .lsp.json that is not JSON loses only that file's servers, with the reason.
    const broken = plugin("broken", {});
    write(join(broken.root, ".lsp.json"), "{ not json");
    const said: string[] = [];
    expect(activePluginLspServers([broken, p], (w) => said.push(w))).toHaveProperty("plugin:mixed:good");
    expect(said[0]).toMatch(/^plugin broken@test: .*\.lsp\.json: .*; its language servers are not loaded$/);
  });
});
