// Transcripts in Claude Code's line shape: what tools people run on Claude Code's sessions need
// (uuid chain, sessionId, cwd, version, gitBranch, timestamp, message id, model and usage), a
// resumed session continuing the chain, transcripts written before (format 1) still resuming,
// and the real `ccusage` CLI reading Warden's sessions with the right token figures.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transcriptPath } from "../../src/config/paths.js";
import { wardenVersion } from "../../src/config/version.js";
import { loadSession } from "../../src/session/transcript-reader.js";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { collect, sessionFor, tempDir, text, toolUse, writeScript } from "../loop/helpers.js";

type Line = Record<string, unknown> & { message?: Record<string, unknown> };

function linesOf(path: string): Line[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Line);
}

const messageLines = (lines: Line[]) => lines.filter((l) => l.type === "user" || l.type === "assistant");

const savedHome = process.env.WARDEN_HOME;
beforeEach(() => {
  process.env.WARDEN_HOME = tempDir("warden-data-");
});
afterEach(() => {
  process.env.WARDEN_HOME = savedHome;
});

function gitRepoOnBranch(branch: string): string {
  const cwd = tempDir("warden-repo-");
  execFileSync("git", ["init", "-q", "-b", branch], { cwd });
  return cwd;
}

describe("Claude Code's transcript shape", () => {
  it("writes each message as a user / assistant line with its uuid chain, metadata, message id, model and usage", async () => {
    const cwd = gitRepoOnBranch("feature-x");
    const { session } = sessionFor(
      cwd,
      [
        { content: [toolUse("t1", "Echo", { text: "a" })], usage: { input_tokens: 120, output_tokens: 7 } },
        { content: [text("done")], usage: { input_tokens: 150, output_tokens: 9, cache_read_input_tokens: 100 } },
      ],
      { transcript: true },
    );
    await collect(session.submitMessage("hello"));
    session.close();
    const lines = messageLines(linesOf(transcriptPath(cwd, session.sessionId)));
    expect(lines.map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant"]);
    let parent: unknown = null;
    for (const line of lines) {
      expect(line).toMatchObject({
        parentUuid: parent,
        isSidechain: false,
        sessionId: session.sessionId,
        cwd,
        version: wardenVersion(),
        gitBranch: "feature-x",
      });
      expect(line.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isNaN(Date.parse(String(line.timestamp)))).toBe(false);
      parent = line.uuid;
    }
    expect(new Set(lines.map((l) => l.uuid)).size).toBe(4);
    expect(lines[0]?.message).toEqual({ role: "user", content: [{ type: "text", text: "hello" }] });
    expect(lines[1]?.message).toMatchObject({
      type: "message",
      role: "assistant",
      model: "scripted",
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 120, output_tokens: 7 },
    });
    expect(lines[1]?.message?.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(lines[3]?.message?.usage).toEqual({ input_tokens: 150, output_tokens: 9, cache_read_input_tokens: 100 });
    expect(lines[1]?.message?.id).not.toBe(lines[3]?.message?.id);
    // Read back, the conversation is the one the session held.
    expect(loadSession(cwd, session.sessionId).messages).toEqual(session.messages);
  });

  it("continues the uuid chain when a session is resumed", async () => {
    const cwd = tempDir();
    const first = sessionFor(cwd, [{ content: [text("one")] }], { transcript: true });
    await collect(first.session.submitMessage("first"));
    first.session.close();
    const loaded = loadSession(cwd, first.session.sessionId);
    const second = sessionFor(cwd, [{ content: [text("two")] }], {
      transcript: true,
      sessionId: loaded.sessionId,
      initialMessages: loaded.messages,
    });
    await collect(second.session.submitMessage("second"));
    second.session.close();
    const all = linesOf(transcriptPath(cwd, loaded.sessionId));
    expect(all.map((l) => l.type)).toEqual([
      "session",
      "user",
      "assistant",
      "result",
      "resume",
      "user",
      "assistant",
      "result",
    ]);
    const lines = messageLines(all);
    expect(lines.map((l) => l.parentUuid)).toEqual([null, lines[0]?.uuid, lines[1]?.uuid, lines[2]?.uuid]);
  });

  it("a fork writes the answers it continues from under their first message.id and requestId", async () => {
    const home = tempDir("warden-fork-ids-home-");
    const cwd = tempDir("warden-fork-ids-project-");
    const script = writeScript(cwd, [{ content: [text("first")] }, { content: [text("forked")] }]);
    const run = (args: string[]) =>
      runCli(["-p", "go", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd, ...args], {
        home,
        env: { WARDEN_HOME: process.env.WARDEN_HOME as string },
      });
    const first = await run([]);
    const firstId = String(jsonLines(first.stdout)[0]?.session_id);
    const fork = await run(["--resume", firstId, "--fork-session"]);
    const forkId = String(jsonLines(fork.stdout)[0]?.session_id);
    expect(forkId).not.toBe(firstId);
    const ids = (id: string) =>
      linesOf(transcriptPath(cwd, id))
        .filter((l) => l.type === "assistant")
        .map((l) => `${String(l.message?.id)} ${String(l.requestId)}`);
    const [original] = ids(firstId);
    expect(original).toMatch(/^msg_\w+ req_\w+$/);
    const copied = ids(forkId);
    expect(copied).toHaveLength(2);
    expect(copied[0]).toBe(original);
    expect(copied[1]).not.toBe(original);
  });

  it("still resumes a transcript written in Warden's first format, and goes on in the new one", async () => {
    const home = tempDir("warden-home-");
    const cwd = tempDir("warden-old-");
    const id = "old-session";
    const file = join(home, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"), `${id}.jsonl`);
    mkdirSync(join(file, ".."), { recursive: true });
    const t = "2026-01-01T00:00:00.000Z";
    const old = [
      { type: "session", version: 1, sessionId: id, cwd, model: "replay:old.jsonl", timestamp: t },
      { type: "message", message: { role: "user", content: [{ type: "text", text: "old question" }] }, timestamp: t },
      {
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "old answer" }],
          stopReason: "end_turn",
          usage: { input_tokens: 5, output_tokens: 2 },
          model: "old",
        },
        timestamp: t,
      },
      { type: "result", reason: "completed", turnCount: 1, usage: { input_tokens: 5, output_tokens: 2 }, timestamp: t },
    ];
    writeFileSync(file, `${old.map((e) => JSON.stringify(e)).join("\n")}\n`);
    process.env.WARDEN_HOME = home;
    expect(loadSession(cwd, id).messages.map((m) => m.content[0])).toEqual([
      { type: "text", text: "old question" },
      { type: "text", text: "old answer" },
    ]);
    const script = writeScript(cwd, [{ content: [text("new answer")] }]);
    const run = await runCli(
      ["-p", "new question", "--resume", id, "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd],
      { home },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ session_id: id, result: "new answer" });
    const texts = loadSession(cwd, id)
      .messages.filter((m) => !(m.role === "user" && m.isMeta))
      .map((m) => (m.content[0] as { text?: string }).text);
    expect(texts).toEqual(["old question", "old answer", "new question", "new answer"]);
    const added = messageLines(linesOf(file));
    expect(added.length).toBeGreaterThanOrEqual(2);
    // The first new line starts a chain: the old part has no uuids to continue from.
    expect(added[0]?.parentUuid).toBeNull();
  });
});

// ccusage's native package exists for linux-x64 here (STACK.md); elsewhere the CLI cannot run.
// scripts/setup.sh installs it there (scripts/ccusage), beside the project, not as its dependency.
const ccusageCli = join(process.cwd(), "scripts", "ccusage", "node_modules", "ccusage", "src", "cli.js");
const ccusageRuns = process.platform === "linux" && process.arch === "x64" && existsSync(ccusageCli);
if (process.platform === "linux" && process.arch === "x64" && !ccusageRuns)
  console.warn("ccusage test skipped: run scripts/setup.sh to install scripts/ccusage");

describe.skipIf(!ccusageRuns)("ccusage on Warden's transcripts", () => {
  it("reports the tokens of each session as the provider counted them", async () => {
    const home = tempDir("warden-ccusage-home-");
    const wardenHome = join(home, ".warden");
    const cwd = tempDir("warden-ccusage-project-");
    writeFileSync(join(cwd, "a.txt"), "hello\n");
    const script = writeScript(cwd, [
      {
        content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: join(cwd, "a.txt") } }],
        usage: {
          input_tokens: 1200,
          output_tokens: 30,
          cache_read_input_tokens: 500,
          cache_creation_input_tokens: 100,
        },
      },
      { content: [{ type: "text", text: "done" }], usage: { input_tokens: 1300, output_tokens: 45 } },
    ]);
    // A hook, so the transcript also holds the entries warden view reads (hook_outcome,
    // permission_decision) beside Claude Code's lines: ccusage must keep reading it.
    const hook = join(cwd, "hook.sh");
    writeFileSync(hook, "#!/usr/bin/env bash\necho looked\n", { mode: 0o755 });
    const settings = join(cwd, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: hook }] }] } }),
    );
    const run = await runCli(
      ["-p", "go", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd, "--settings", settings],
      { home, env: { WARDEN_HOME: wardenHome } },
    );
    expect(run.code, run.stderr).toBe(0);
    const sessionId = jsonLines(run.stdout)[0]?.session_id;
    process.env.WARDEN_HOME = wardenHome;
    const types = linesOf(transcriptPath(cwd, String(sessionId))).map((line) => line.type);
    expect(types).toEqual(expect.arrayContaining(["hook_outcome", "permission_decision"]));

    const cli = ccusageCli;
    const report = spawnSync(process.execPath, [cli, "claude", "session", "--json", "--offline"], {
      cwd: home,
      encoding: "utf8",
      // HOME too: ccusage also looks in other agents' folders under the home.
      env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: wardenHome },
      timeout: 60_000,
    });
    expect(report.status, report.stderr).toBe(0);
    const parsed = JSON.parse(report.stdout) as {
      sessions: Array<Record<string, unknown>>;
      totals: Record<string, number>;
    };
    expect(parsed.sessions).toHaveLength(1);
    expect(parsed.sessions[0]).toMatchObject({
      sessionId,
      inputTokens: 2500,
      outputTokens: 75,
      cacheReadTokens: 500,
      cacheCreationTokens: 100,
      totalTokens: 3175,
    });
    expect(parsed.totals).toMatchObject({ inputTokens: 2500, outputTokens: 75, totalTokens: 3175 });
  });

  it("counts a forked session's copy of the conversation it continues once", async () => {
    const home = tempDir("warden-ccusage-fork-home-");
    const wardenHome = join(home, ".warden");
    const cwd = tempDir("warden-ccusage-fork-project-");
    const answer = (name: string, text: string, input: number, output: number) =>
      writeScript(
        cwd,
        [{ content: [{ type: "text", text }], usage: { input_tokens: input, output_tokens: output } }],
        name,
      );
    const run = (script: string, args: string[]) =>
      runCli(["-p", "go", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd, ...args], {
        home,
        env: { WARDEN_HOME: wardenHome },
      });
    const first = await run(answer("first.jsonl", "first", 1000, 100), []);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = String(jsonLines(first.stdout)[0]?.session_id);
    const fork = await run(answer("fork.jsonl", "forked", 2000, 10), ["--resume", sessionId, "--fork-session"]);
    expect(fork.code, fork.stderr).toBe(0);
    const report = spawnSync(process.execPath, [ccusageCli, "claude", "session", "--json", "--offline"], {
      cwd: home,
      encoding: "utf8",
      env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: wardenHome },
      timeout: 60_000,
    });
    expect(report.status, report.stderr).toBe(0);
    const parsed = JSON.parse(report.stdout) as { totals: Record<string, number> };
    expect(parsed.totals).toMatchObject({ inputTokens: 3000, outputTokens: 110 });
  });
});
