import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectSlug } from "../../src/config/paths.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";
import { jsonLines, runCli } from "./run-cli.js";

function transcriptIn(home: string, cwd: string, sessionId: string): string {
  return join(home, "projects", projectSlug(cwd), `${sessionId}.jsonl`);
}

function setup(turns: object[]) {
  const home = tempDir("warden-cli-home-");
  const cwd = tempDir("warden-cli-project-");
  const script = writeScript(cwd, turns);
  return { home, cwd, script };
}

const echoThenDone = [
  {
    content: [text("Echoing."), toolUse("toolu_1", "Echo", { text: "hello from {{cwd}}" })],
    usage: { input_tokens: 100, output_tokens: 10 },
  },
  { content: [text("The tool said hello.")], usage: { input_tokens: 150, output_tokens: 6 } },
];

describe("warden -p (headless)", () => {
  it("runs a replayed session that calls a tool and finishes, in stream-json", async () => {
    const { home, cwd, script } = setup(echoThenDone);
    const run = await runCli(
      ["-p", "say hello", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", cwd],
      { home },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    // The agent list is a reminder before the first request (a meta user line).
    expect(lines.map((l) => l.type)).toEqual(["system", "user", "assistant", "user", "assistant", "result"]);
    const [init, listing, call, toolResult, answer, result] = lines;
    expect(listing).toMatchObject({ isMeta: true });
    expect(JSON.stringify(listing?.message)).toContain("Agent types available to the Agent tool");
    // The model id without the provider, as the Agent SDK shows it (for replay: the script).
    expect(init).toMatchObject({ subtype: "init", cwd, model: script, permissionMode: "default" });
    expect(init?.tools).toContain("Echo");
    const sessionId = init?.session_id as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(call).toMatchObject({
      session_id: sessionId,
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "Echoing." },
          { type: "tool_use", id: "toolu_1", name: "Echo", input: { text: `hello from ${cwd}` } },
        ],
      },
    });
    expect(toolResult).toMatchObject({
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: `echo: hello from ${cwd}` }],
      },
    });
    expect(answer).toMatchObject({
      message: { content: [{ type: "text", text: "The tool said hello." }], stop_reason: "end_turn" },
    });
    expect(result).toMatchObject({
      subtype: "success",
      is_error: false,
      num_turns: 2,
      result: "The tool said hello.",
      session_id: sessionId,
      usage: { input_tokens: 250, output_tokens: 16 },
      permission_denials: [],
    });
    expect(typeof result?.duration_ms).toBe("number");
    // The transcript went to the session's data folder (WARDEN_HOME), nowhere else.
    expect(existsSync(transcriptIn(home, cwd, sessionId))).toBe(true);
  });

  it("refuses a tool that is not read-only, reports it in permission_denials and never runs it", async () => {
    const { home, cwd, script } = setup([
      { content: [toolUse("toolu_w", "WriteNote", { path: "{{cwd}}/note.txt", text: "x" })] },
      { content: [text("I could not write it.")] },
    ]);
    const run = await runCli(
      ["-p", "write", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", cwd],
      { home },
    );
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    // This script gives no usage: consumers still get a usage object, with zero tokens.
    expect(lines[2]?.message).toMatchObject({ usage: { input_tokens: 0, output_tokens: 0 } });
    const refused = lines[3]?.message as { content: Array<{ content: string; is_error: boolean }> };
    expect(refused.content[0]?.is_error).toBe(true);
    expect(refused.content[0]?.content).toMatch(/Permission to use WriteNote was denied/);
    expect(lines.at(-1)?.permission_denials).toEqual([
      { tool_name: "WriteNote", tool_use_id: "toolu_w", tool_input: { path: join(cwd, "note.txt"), text: "x" } },
    ]);
    expect(existsSync(join(cwd, "note.txt"))).toBe(false);
  });

  it("--verbose tells a refused call from a failed one and from one that ran", async () => {
    const { home, cwd, script } = setup([
      {
        content: [
          toolUse("toolu_w", "WriteNote", { path: "{{cwd}}/note.txt", text: "x" }),
          toolUse("toolu_e", "Echo", { text: "fine" }),
          toolUse("toolu_x", "NoSuchTool", {}),
        ],
      },
      { content: [text("Done.")] },
    ]);
    const run = await runCli(["-p", "go", "--verbose", "--model", `replay:${script}`, "--cwd", cwd], { home });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\[tool\] WriteNote .* -> denied \(/);
    expect(run.stderr).toMatch(/\[tool\] Echo .* -> ok \(/);
    expect(run.stderr).toMatch(/\[tool\] NoSuchTool .* -> error \(/);
  });

  it("prints only the result object with --output-format json, and only the answer with text", async () => {
    const first = setup(echoThenDone);
    const json = await runCli(
      ["-p", "hi", "--model", `replay:${first.script}`, "--output-format", "json", "--cwd", first.cwd],
      { home: first.home },
    );
    expect(json.code).toBe(0);
    const lines = jsonLines(json.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "result", subtype: "success", result: "The tool said hello." });

    const second = setup(echoThenDone);
    const plain = await runCli(["-p", "hi", "--model", `replay:${second.script}`, "--cwd", second.cwd], {
      home: second.home,
    });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe("The tool said hello.\n");
  });

  it("prints one JSON array of every message, the result last, with --output-format json --verbose", async () => {
    // Claude Code's shape: a script written against `claude -p --output-format json --verbose`
    // reads an array (and takes the result from its end).
    const { home, cwd, script } = setup(echoThenDone);
    const run = await runCli(
      ["-p", "hi", "--model", `replay:${script}`, "--output-format", "json", "--verbose", "--cwd", cwd],
      { home },
    );
    expect(run.code).toBe(0);
    // Nothing on stderr: the calls are in the array, not said as `[tool]` lines.
    expect(run.stderr).toBe("");
    expect(run.stdout.endsWith("]\n")).toBe(true);
    const all = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(all.map((m) => m.type)).toEqual(["system", "user", "assistant", "user", "assistant", "result"]);
    expect(all[0]).toMatchObject({ subtype: "init", cwd });
    expect(JSON.stringify(all[3])).toContain(`echo: hello from ${cwd}`);
    expect(all.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "The tool said hello." });
  });

  it("reads the prompt from stdin", async () => {
    const { home, cwd, script } = setup([{ content: [text("got it")] }]);
    const run = await runCli(["-p", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", cwd], {
      home,
      input: "question on stdin\n",
    });
    expect(run.code).toBe(0);
    const init = jsonLines(run.stdout)[0];
    const transcript = readFileSync(transcriptIn(home, cwd, init?.session_id as string), "utf8");
    expect(transcript).toContain("question on stdin");
  });

  it("stops at --max-turns with error_max_turns and exit code 1", async () => {
    const loop = [1, 2, 3].map((i) => ({ content: [toolUse(`t${i}`, "Echo", { text: String(i) })] }));
    const { home, cwd, script } = setup(loop);
    const run = await runCli(
      ["-p", "loop", "--model", `replay:${script}`, "--output-format", "json", "--max-turns", "2", "--cwd", cwd],
      { home },
    );
    expect(run.code).toBe(1);
    expect(jsonLines(run.stdout)[0]).toMatchObject({
      subtype: "error_max_turns",
      is_error: true,
      num_turns: 2,
      terminal_reason: "max_turns",
    });
  });

  it("ends with error_during_execution when the replay script runs out", async () => {
    const { home, cwd, script } = setup([{ content: [toolUse("t1", "Echo", { text: "a" })] }]);
    const run = await runCli(["-p", "x", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd], {
      home,
    });
    expect(run.code).toBe(1);
    const [result] = jsonLines(run.stdout);
    expect(result).toMatchObject({ subtype: "error_during_execution", is_error: true, terminal_reason: "model_error" });
    expect(result?.error).toMatch(/the model request failed: replay script .* ran out/);
  });

  it("rejects a malformed replay file with a clear error naming the line", async () => {
    const { home, cwd } = setup([]);
    const bad = join(cwd, "bad.jsonl");
    writeFileSync(bad, '{"content":[{"type":"text","text":"ok"}]}\n{"content":[{"type":"tool_use","name":"Echo"}]}\n');
    const run = await runCli(["-p", "x", "--model", `replay:${bad}`, "--cwd", cwd], { home });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`replay script ${bad} line 2, block 1: a tool_use block needs an "id"`);
  });

  it("resumes a session by id and continues the latest one", async () => {
    const { home, cwd, script } = setup([{ content: [text("first answer")] }]);
    const first = await runCli(
      ["-p", "first question", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd],
      { home },
    );
    const sessionId = jsonLines(first.stdout)[0]?.session_id as string;
    const second = writeScript(cwd, [{ content: [text("second answer")] }], "second.jsonl");
    const resumed = await runCli(
      [
        "-p",
        "second question",
        "--resume",
        sessionId,
        "--model",
        `replay:${second}`,
        "--output-format",
        "json",
        "--cwd",
        cwd,
      ],
      { home },
    );
    expect(resumed.code).toBe(0);
    expect(jsonLines(resumed.stdout)[0]).toMatchObject({ session_id: sessionId, result: "second answer" });
    const third = writeScript(cwd, [{ content: [text("third answer")] }], "third.jsonl");
    const continued = await runCli(
      ["-p", "third question", "--continue", "--model", `replay:${third}`, "--output-format", "json", "--cwd", cwd],
      { home },
    );
    expect(jsonLines(continued.stdout)[0]).toMatchObject({ session_id: sessionId, result: "third answer" });
    const file = transcriptIn(home, cwd, sessionId);
    const entries = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "user" || e.type === "assistant");
    // The agent list was told once: a resumed session finds it in the conversation.
    expect(entries.filter((e) => e.isMeta && e.message.content[0].text.includes("Agent types"))).toHaveLength(1);
    const messages = entries.filter((e) => !e.isMeta).map((e) => e.message.content[0].text);
    expect(messages).toEqual([
      "first question",
      "first answer",
      "second question",
      "second answer",
      "third question",
      "third answer",
    ]);
  });

  it("says clearly when there is nothing to continue or the session id is unknown", async () => {
    const { home, cwd, script } = setup([{ content: [text("x")] }]);
    const none = await runCli(["-p", "x", "--continue", "--model", `replay:${script}`, "--cwd", cwd], { home });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`no earlier session in ${cwd} to continue`);
    const unknown = await runCli(["-p", "x", "--resume", "no-such-id", "--model", `replay:${script}`, "--cwd", cwd], {
      home,
    });
    expect(unknown.code).toBe(1);
    // As Claude Code says it (scripts look for the line), with the folder whose sessions were searched.
    expect(unknown.stderr).toContain(
      `warden: no conversation found with session ID: no-such-id (among the sessions of ${cwd})\n`,
    );
    expect(unknown.stderr).not.toContain("transcript");
  });

  it("asks for --model when none is given and no API key is set", async () => {
    const { home, cwd } = setup([]);
    const run = await runCli(["-p", "x", "--cwd", cwd], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no model chosen: pass --model provider:model/);
  });

  it("rejects unknown options and bad values with usage, exit 2", async () => {
    const { home } = setup([]);
    const unknown = await runCli(["-p", "x", "--frobnicate"], { home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option --frobnicate");
    // One line pointing to --help, not the whole help (test/cli/usage-errors.test.ts has the rest).
    expect(unknown.stderr).toContain("Run 'warden --help' for the options.");
    expect(unknown.stderr).not.toContain("Usage: warden");
    const badTurns = await runCli(["-p", "x", "--max-turns", "0"], { home });
    expect(badTurns.code).toBe(2);
    expect(badTurns.stderr).toContain("--max-turns must be a whole number >= 1");
  });

  it("without -p, a prompt or a terminal says the interactive session needs a terminal", async () => {
    const { home } = setup([]);
    const run = await runCli([], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the interactive session needs a terminal, but stdin is not a terminal");
  });

  it("stops on Ctrl+C while the model is answering, still printing a result, exit 130", async () => {
    const { home, cwd, script } = setup([{ content: [text("too late")], delay_ms: 60_000 }]);
    let sent = false;
    const run = await runCli(
      ["-p", "x", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", cwd],
      {
        home,
        onStdout: (chunk, child) => {
          if (!sent && chunk.includes('"subtype":"init"')) {
            sent = true;
            child.kill("SIGINT");
          }
        },
      },
    );
    expect(run.code).toBe(130);
    const result = jsonLines(run.stdout).at(-1);
    expect(result).toMatchObject({
      type: "result",
      subtype: "error_during_execution",
      terminal_reason: "aborted_streaming",
    });
  });

  it("stops quietly with exit 141 when its output pipe is closed", async () => {
    const { home, cwd, script } = setup([
      { content: [toolUse("t1", "Echo", { text: "a" })], delay_ms: 300 },
      { content: [text("never read")], delay_ms: 5_000 },
    ]);
    let closed = false;
    const run = await runCli(
      ["-p", "x", "--model", `replay:${script}`, "--output-format", "stream-json", "--cwd", cwd],
      {
        home,
        onStdout: (chunk, child) => {
          if (!closed && chunk.includes('"subtype":"init"')) {
            closed = true;
            child.stdout?.destroy();
          }
        },
      },
    );
    expect(run.code).toBe(141);
    expect(run.stderr).not.toContain("EPIPE");
  });

  it("reads a relative replay path from where the command runs, while {{cwd}} is --cwd", async () => {
    const { home, cwd: scriptDir } = setup([]);
    writeScript(
      scriptDir,
      [{ content: [toolUse("t1", "Echo", { text: "in {{cwd}}" })] }, { content: [text("ok")] }],
      "relative.jsonl",
    );
    const project = tempDir("warden-cli-other-");
    const run = await runCli(
      ["-p", "x", "--model", "replay:relative.jsonl", "--output-format", "stream-json", "--cwd", project],
      {
        home,
        processCwd: scriptDir,
      },
    );
    expect(run.code).toBe(0);
    const toolResult = jsonLines(run.stdout)[3]?.message as { content: Array<{ content: string }> };
    expect(toolResult.content[0]?.content).toBe(`echo: in ${project}`);
  });
});
