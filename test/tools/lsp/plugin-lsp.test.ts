// A language server a plugin declares, in Claude Code's format, through the real CLI: `.lsp.json`
// at the plugin's root names typescript-language-server behind a script of the plugin's own
// (`${CLAUDE_PLUGIN_ROOT}/bin/ts-lsp`), plugin.json's `lspServers` adds a file and an inline entry.
// The model's LSP call is answered by that server (the built-in TypeScript server is turned off in
// the user's settings, which is how a person picks a plugin's server over it); a malformed entry
// and an unsupported transport are each named on stderr while the good server still loads; and a
// project's enabledPlugins brings the plugin's server only once the folder is trusted.
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../../cli/run-cli.js";
import { tempDir, text, toolUse, writeScript } from "../../loop/helpers.js";
import { copyLspProject, processesIn } from "./fixture.js";

/** What a plugin's files write for their folder, spelled so it is not read as a template here. */
const PLUGIN_ROOT = "$" + "{CLAUDE_PLUGIN_ROOT}";
const require = createRequire(import.meta.url);
const serverCli = join(dirname(require.resolve("typescript-language-server/package.json")), "lib", "cli.mjs");
const tsserver = join(dirname(require.resolve("typescript/package.json")), "lib", "tsserver.js");

let dir: string;
let home: string;
let project: string;
let pluginDir: string;
let mark: string;

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** The `tsplug` plugin: one working server in .lsp.json, a socket one in a file, a broken one inline. */
function writePlugin(root: string): void {
  write(
    join(root, ".claude-plugin", "plugin.json"),
    JSON.stringify({
      name: "tsplug",
      version: "1.0.0",
      lspServers: ["./config/more-lsp.json", { broken: { command: "some-server", args: ["--stdio"] } }],
    }),
  );
  write(
    join(root, ".lsp.json"),
    JSON.stringify({
      typescript: {
        command: `${PLUGIN_ROOT}/bin/ts-lsp`,
        args: ["--stdio"],
        extensionToLanguage: { ".ts": "typescript" },
        initializationOptions: { tsserver: { path: tsserver, useSyntaxServer: "never" }, preferences: {} },
        startupTimeout: 120_000,
      },
    }),
  );
  write(
    join(root, "config", "more-lsp.json"),
    JSON.stringify({
      socketed: { command: "some-server", transport: "socket", extensionToLanguage: { ".zz": "zz" } },
    }),
  );
  // The server records who started it (the plugin's folder, as the server's environment gives it).
  write(
    join(root, "bin", "ts-lsp"),
    `#!/bin/sh\nprintf '%s' "$CLAUDE_PLUGIN_ROOT" > "$PLUGIN_LSP_MARK"\nexec '${process.execPath}' '${serverCli}' "$@"\n`,
  );
  chmodSync(join(root, "bin", "ts-lsp"), 0o755);
}

beforeAll(() => {
  dir = tempDir("warden-plugin-lsp-");
  home = join(dir, "home");
  mkdirSync(home, { recursive: true });
  // The person picks the plugin's TypeScript server over the built-in one.
  write(join(home, "settings.json"), JSON.stringify({ lspServers: { typescript: { disabled: true } } }));
  project = copyLspProject("warden-plugin-lsp-project-");
  pluginDir = join(dir, "tsplug");
  writePlugin(pluginDir);
  mark = join(dir, "server-mark.txt");
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

let runs = 0;
async function session(turns: object[], extra: string[] = []) {
  const script = writeScript(dir, turns, `turns-${++runs}.jsonl`);
  rmSync(mark, { force: true });
  const run = await runCli(
    ["-p", "look", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", project, ...extra],
    { home, processCwd: project, env: { PLUGIN_LSP_MARK: mark } },
  );
  const lines = jsonLines(run.stdout);
  const init = lines.find((l) => l.type === "system" && l.subtype === "init") as { tools: string[] };
  return { run, lines, init };
}

describe("a plugin's language servers", { timeout: 180_000 }, () => {
  it("answers the model's LSP call with the plugin's server, and names each entry it cannot use", async () => {
    const { run, lines, init } = await session(
      [
        { content: [toolUse("t1", "ToolSearch", { query: "select:LSP" })] },
        {
          content: [
            toolUse("t2", "LSP", { operation: "hover", filePath: "{{cwd}}/src/main.ts", line: 4, character: 10 }),
          ],
        },
        { content: [text("Done.")] },
      ],
      ["--plugin-dir", pluginDir],
    );
    expect(run.code).toBe(0);
    expect(init.tools).toContain("LSP");
    const hover = JSON.stringify(lines.find((line) => JSON.stringify(line).includes('"tool_use_id":"t2"')));
    expect(hover).toContain("const total: number");
    // Started through the plugin's own script, with the plugin's folder as CLAUDE_PLUGIN_ROOT.
    expect(readFileSync(mark, "utf8")).toBe(pluginDir);
    expect(run.stderr).toContain(
      `plugin tsplug@--plugin-dir: ${join(pluginDir, ".claude-plugin", "plugin.json")}: language server "broken": extensionToLanguage:`,
    );
    expect(run.stderr).toContain(
      `language server "socketed" uses the socket transport, which Warden does not support (stdio only); it is not loaded`,
    );
    expect(processesIn(project)).toEqual([]);
  });

  it("comes from a project's enabledPlugins only once the folder is trusted", async () => {
    const market = join(dir, "market");
    write(
      join(market, ".claude-plugin", "marketplace.json"),
      JSON.stringify({ name: "lsp-market", plugins: [{ name: "tsplug", source: "./plugins/tsplug" }] }),
    );
    cpSync(pluginDir, join(market, "plugins", "tsplug"), { recursive: true });
    const cli = (...args: string[]) => runCli(args, { home, processCwd: project });
    expect((await cli("plugin", "marketplace", "add", market)).code).toBe(0);
    expect((await cli("plugin", "install", "tsplug@lsp-market")).code).toBe(0);
    // Off for the user; the project turns it on.
    expect((await cli("plugin", "disable", "tsplug@lsp-market")).code).toBe(0);
    write(join(project, ".claude", "settings.json"), JSON.stringify({ enabledPlugins: { "tsplug@lsp-market": true } }));

    const untrusted = await session([{ content: [text("Done.")] }]);
    expect(untrusted.run.code).toBe(0);
    expect(untrusted.init.tools).not.toContain("LSP");
    expect(untrusted.run.stderr).toContain("enabledPlugins: turns on plugins");
    // Nothing of the plugin was read: no word about its servers' entries.
    expect(untrusted.run.stderr).not.toContain('language server "');

    expect((await cli("trust", "--yes", project)).code).toBe(0);
    const trusted = await session([
      { content: [toolUse("t1", "ToolSearch", { query: "select:LSP" })] },
      {
        content: [
          toolUse("t2", "LSP", { operation: "hover", filePath: "{{cwd}}/src/main.ts", line: 4, character: 10 }),
        ],
      },
      { content: [text("Done.")] },
    ]);
    expect(trusted.init.tools).toContain("LSP");
    const hover = JSON.stringify(trusted.lines.find((line) => JSON.stringify(line).includes('"tool_use_id":"t2"')));
    expect(hover).toContain("const total: number");
    expect(readFileSync(mark, "utf8")).toContain(join("cache", "lsp-market", "tsplug"));
  });
});
