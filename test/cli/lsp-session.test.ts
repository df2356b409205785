// A headless session with the LSP tool: the scripted model loads it, asks the server, then breaks
// a type with Edit; the next request carries the server's new error as a diagnostics reminder, and
// no language-server process is left once the session has ended.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { copyLspProject, processesIn } from "../tools/lsp/fixture.js";
import { jsonLines, runCli } from "./run-cli.js";

describe("LSP in a headless session", () => {
  it("reports a type broken by an edit at the next request, and stops its server at the end", {
    timeout: 180_000,
  }, async () => {
    const home = tempDir("warden-lsp-home-");
    const cwd = copyLspProject();
    const main = "{{cwd}}/src/main.ts";
    const script = writeScript(home, [
      { content: [toolUse("t1", "ToolSearch", { query: "select:LSP" })] },
      {
        content: [
          toolUse("t2", "Read", { file_path: main }),
          toolUse("t3", "LSP", { operation: "hover", filePath: main, line: 4, character: 10 }),
        ],
      },
      {
        content: [
          toolUse("t4", "Edit", {
            file_path: main,
            old_string: "const total: number = totalArea(",
            new_string: "const total: string = totalArea(",
          }),
        ],
      },
      { content: [toolUse("t5", "Read", { file_path: main, limit: 3 })] },
      { content: [text("Done.")] },
    ]);
    const run = await runCli(
      [
        "-p",
        "change it",
        "--model",
        `replay:${script}`,
        "--output-format",
        "stream-json",
        "--permission-mode",
        "acceptEdits",
        "--cwd",
        cwd,
      ],
      { home },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    const init = lines[0] as { tools: string[] };
    expect(init.tools).toContain("LSP");
    const hover = JSON.stringify(lines.find((line) => JSON.stringify(line).includes('"tool_use_id":"t3"')));
    expect(hover).toContain("const total: number");

    const sessionId = (lines.at(-1) as { session_id: string }).session_id;
    const transcript = readFileSync(join(home, "projects", projectSlug(cwd), `${sessionId}.jsonl`), "utf8");
    const reminder = transcript
      .split("\n")
      .filter((line) => line.includes("reports new errors in src/main.ts after your edit"));
    expect(reminder.length).toBe(1);
    expect(reminder[0]).toMatch(
      /src\/main\.ts:4:\d+ error \(typescript 2322\): Type 'number' is not assignable to type 'string'/,
    );
    // Reported once, after the Edit (t4) and before the model's next call (t5).
    expect(transcript.indexOf(reminder[0] as string)).toBeGreaterThan(transcript.indexOf('"id":"t4"'));
    expect(transcript.indexOf(reminder[0] as string)).toBeLessThan(transcript.indexOf('"id":"t5"'));
    expect(processesIn(cwd)).toEqual([]);
  });

  it("leaves no language server behind when warden is killed with SIGKILL", { timeout: 180_000 }, async () => {
    const home = tempDir("warden-lsp-home-");
    const cwd = copyLspProject();
    const script = writeScript(home, [
      { content: [toolUse("t1", "ToolSearch", { query: "select:LSP" })] },
      {
        content: [
          toolUse("t2", "LSP", {
            operation: "documentSymbol",
            filePath: "{{cwd}}/src/shapes.ts",
            line: 1,
            character: 1,
          }),
        ],
      },
      { delay_ms: 60_000, content: [text("late")] },
    ]);
    let serversWhenKilled: number[] = [];
    const run = await runCli(
      ["-p", "go", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", cwd],
      {
        home,
        onStdout: (chunk, child) => {
          if (!chunk.includes('"tool_use_id":"t2"') || serversWhenKilled.length > 0) return;
          serversWhenKilled = processesIn(cwd);
          child.kill("SIGKILL");
        },
      },
    );
    expect(run.signal).toBe("SIGKILL");
    // The server and its tsserver were running when warden died.
    expect(serversWhenKilled.length).toBeGreaterThanOrEqual(2);
    const deadline = Date.now() + 15_000;
    while (processesIn(cwd).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(processesIn(cwd)).toEqual([]);
  });
});
