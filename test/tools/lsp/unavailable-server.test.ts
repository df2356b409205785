// A language server set up in settings whose command is not installed, seen by the model through
// the built CLI: a call for its files says that server cannot run and why, not only that no server
// handles the file (which reads as if nothing had been set up), and the session goes on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runCli } from "../../cli/run-cli.js";
import { copyLspProject } from "./fixture.js";

let project: string;
let dir: string;

beforeAll(() => {
  project = copyLspProject("warden-lsp-unavailable-");
  dir = mkdtempSync(join(tmpdir(), "warden-lsp-unavailable-home-"));
  mkdirSync(join(dir, "home"), { recursive: true });
});
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

const toolUse = (id: string, name: string, input: object) => ({ content: [{ type: "tool_use", id, name, input }] });

/**
 * `warden -p` with these language servers set up, the model asking hover on `file`: the LSP call's
 * result block, after checking that the session went on past it.
 */
async function hoverThrough(name: string, servers: object, file: string): Promise<Record<string, unknown> | undefined> {
  const settings = join(dir, `settings-${name}.json`);
  writeFileSync(settings, JSON.stringify({ lspServers: servers }));
  const script = join(dir, `model-${name}.jsonl`);
  const turns = [
    toolUse("t1", "ToolSearch", { query: "select:LSP" }),
    toolUse("l1", "LSP", { operation: "hover", filePath: file, line: 1, character: 4 }),
    { content: [{ type: "text", text: "went on" }] },
  ];
  writeFileSync(script, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  const run = await runCli(
    [
      "-p",
      "hover",
      "--model",
      `replay:${script}`,
      "--settings",
      settings,
      "--output-format",
      "stream-json",
      "--verbose",
    ],
    { home: join(dir, "home"), processCwd: project },
  );
  expect(run.code, run.stderr).toBe(0);
  expect(jsonLines(run.stdout).at(-1)?.result).toBe("went on");
  return jsonLines(run.stdout)
    .flatMap((line) =>
      line.type === "user" ? ((line.message as { content?: Array<Record<string, unknown>> }).content ?? []) : [],
    )
    .find((block) => block.tool_use_id === "l1");
}

describe("a language server whose command is not installed", () => {
  it("is named, with the reason, when the model asks about one of its files", async () => {
    writeFileSync(join(project, "main.rs"), "fn main() {}\n");
    const lsp = await hoverThrough(
      "missing",
      { rust: { command: "no-such-rust-analyzer-xyz", extensions: [".rs"] } },
      "main.rs",
    );
    expect(lsp?.is_error).toBe(true);
    expect(String(lsp?.content)).toContain(
      'the language server "rust" set up for .rs files cannot run (its command no-such-rust-analyzer-xyz was not found)',
    );
  }, 60_000);

  it("a server that exits at start is said to have exited, with its code and stderr, not as a broken pipe", async () => {
    writeFileSync(join(project, "lib.zig"), "const x = 1;\n");
    const server = join(dir, "dying-server.sh");
    writeFileSync(server, "#!/bin/sh\necho 'no license for this machine' >&2\nexit 3\n", { mode: 0o755 });
    const lsp = await hoverThrough("dying", { zig: { command: server, extensions: [".zig"] } }, "lib.zig");
    expect(String(lsp?.content)).toContain("could not start: it exited (code 3)");
    expect(String(lsp?.content)).toContain("no license for this machine");
  }, 60_000);

  it("a command that does not speak LSP on stdout is refused at once with what it said, not after the startup timeout", async () => {
    writeFileSync(join(project, "lib.nim"), "echo 1\n");
    const server = join(dir, "banner-server.sh");
    // A banner (or a usage text) on stdout, then waiting: the LSP reader would wait for a header forever.
    writeFileSync(server, "#!/bin/sh\necho 'Welcome to nimls 0.1, type help'\nexec sleep 1000\n", { mode: 0o755 });
    const lsp = await hoverThrough(
      "banner",
      { nim: { command: server, extensions: [".nim"], startupTimeout: 30_000 } },
      "lib.nim",
    );
    expect(String(lsp?.content)).toContain("its output is not the language server protocol");
    expect(String(lsp?.content)).toContain("Welcome to nimls 0.1");
  }, 60_000);
});
