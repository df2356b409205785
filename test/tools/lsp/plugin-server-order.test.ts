// Where a plugin's language servers go among a session's: after the built-in ones and the user's
// own (a file goes to the first server listing its extension, so a plugin cannot take `.ts` from
// Warden's TypeScript server), each named when it answers for nothing or its program is missing;
// settings `lspServers` turn off a built-in server to let a plugin's answer, or a plugin's by name.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { activePluginLspServers } from "../../../src/config/plugins/lsp-servers.js";
import { pluginManifestSchema } from "../../../src/config/plugins/manifest.js";
import { chooseLspServers } from "../../../src/lsp/servers.js";

const ROOT_VARIABLE = "$" + "{CLAUDE_PLUGIN_ROOT}";
const dir = mkdtempSync(join(tmpdir(), "warden-plugin-lsp-order-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function executable(path: string): void {
  write(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
}

describe("a plugin's language servers among the session's", () => {
  it("comes after the built-in and the user's own servers, and settings can change or turn it off", () => {
    const project = join(dir, "project");
    write(join(project, "tsconfig.json"), "{}");
    const root = join(dir, "ts-and-go");
    const p = {
      id: "ts-and-go@test",
      name: "ts-and-go",
      root,
      manifest: pluginManifestSchema.parse({ name: "ts-and-go" }),
    };
    executable(join(p.root, "bin", "ts"));
    executable(join(p.root, "bin", "go"));
    write(
      join(p.root, ".lsp.json"),
      JSON.stringify({
        ts: { command: `${ROOT_VARIABLE}/bin/ts`, extensionToLanguage: { ".ts": "typescript" } },
        go: { command: `${ROOT_VARIABLE}/bin/go`, extensionToLanguage: { ".go": "go" } },
        missing: { command: "no-such-language-server-xyz", extensionToLanguage: { ".zz": "zz" } },
      }),
    );
    const pluginServers = activePluginLspServers([p], () => undefined);
    const choice = chooseLspServers({ cwd: project, trusted: true, pluginServers });
    expect(choice.servers.map((s) => s.name)).toEqual(["typescript", "plugin:ts-and-go:ts", "plugin:ts-and-go:go"]);
    expect(choice.servers[2]?.command).toBe(join(p.root, "bin", "go"));
    expect(choice.servers[2]?.env.CLAUDE_PLUGIN_ROOT).toBe(p.root);
    expect(choice.warnings).toEqual([
      'language server "plugin:ts-and-go:ts" answers for no file: typescript answer(s) for its extensions first (turn one off with settings lspServers.NAME.disabled)',
      'language server "plugin:ts-and-go:missing": command no-such-language-server-xyz was not found',
    ]);

    const chosen = chooseLspServers({
      cwd: project,
      trusted: true,
      pluginServers,
      settings: { typescript: { disabled: true }, "plugin:ts-and-go:go": { disabled: true } },
    });
    expect(chosen.servers.map((s) => s.name)).toEqual(["plugin:ts-and-go:ts"]);
  });
});
