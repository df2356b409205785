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

describe("a language server whose command is not installed", () => {
  it("is named, with the reason, when the model asks about one of its files", async () => {
    writeFileSync(join(project, "main.rs"), "fn main() {}\n");
    const settings = join(dir, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({ lspServers: { rust: { command: "no-such-rust-analyzer-xyz", extensions: [".rs"] } } }),
    );
    const script = join(dir, "model.jsonl");
    const turns = [
      toolUse("t1", "ToolSearch", { query: "select:LSP" }),
      toolUse("l1", "LSP", { operation: "hover", filePath: "main.rs", line: 1, character: 4 }),
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
    const results = jsonLines(run.stdout).flatMap((line) => {
      const message = line.message as { content?: Array<Record<string, unknown>> } | undefined;
      return line.type === "user" ? (message?.content ?? []) : [];
    });
    const lsp = results.find((block) => block.tool_use_id === "l1");
    expect(lsp?.is_error).toBe(true);
    expect(String(lsp?.content)).toContain(
      'the language server "rust" set up for .rs files cannot run (its command no-such-rust-analyzer-xyz was not found)',
    );
    expect(jsonLines(run.stdout).at(-1)?.result).toBe("went on");
  }, 60_000);

  it("a server that exits at start is said to have exited, with its code and stderr, not as a broken pipe", async () => {
    writeFileSync(join(project, "lib.zig"), "const x = 1;\n");
    const server = join(dir, "dying-server.sh");
    writeFileSync(server, "#!/bin/sh\necho 'no license for this machine' >&2\nexit 3\n", { mode: 0o755 });
    const settings = join(dir, "settings-dying.json");
    writeFileSync(settings, JSON.stringify({ lspServers: { zig: { command: server, extensions: [".zig"] } } }));
    const script = join(dir, "model-dying.jsonl");
    const turns = [
      toolUse("t1", "ToolSearch", { query: "select:LSP" }),
      toolUse("l1", "LSP", { operation: "hover", filePath: "lib.zig", line: 1, character: 7 }),
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
    const lsp = jsonLines(run.stdout)
      .flatMap((line) =>
        line.type === "user" ? ((line.message as { content?: Array<Record<string, unknown>> }).content ?? []) : [],
      )
      .find((block) => block.tool_use_id === "l1");
    expect(String(lsp?.content)).toContain("could not start: it exited (code 3)");
    expect(String(lsp?.content)).toContain("no license for this machine");
    expect(jsonLines(run.stdout).at(-1)?.result).toBe("went on");
  }, 60_000);
});
