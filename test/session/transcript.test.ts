import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transcriptPath } from "../../src/config/paths.js";
import { TranscriptWriter } from "../../src/session/transcript.js";
import {
  latestSessionId,
  loadSession,
  loadTranscriptFile,
  resolveSessionId,
} from "../../src/session/transcript-reader.js";
import { builtFixture } from "../helpers/built.js";
import { collect, sessionFor, tempDir, text, toolUse } from "../loop/helpers.js";

const savedHome = process.env.WARDEN_HOME;
beforeEach(() => {
  process.env.WARDEN_HOME = tempDir("warden-data-");
});
afterEach(() => {
  process.env.WARDEN_HOME = savedHome;
});

describe("transcripts", () => {
  it("records every message of a session and loads them back", async () => {
    const cwd = tempDir();
    const { session } = sessionFor(
      cwd,
      [{ content: [toolUse("t1", "Echo", { text: "a" })] }, { content: [text("done")] }],
      {
        transcript: true,
      },
    );
    await collect(session.submitMessage("hello"));
    session.recordEntry({
      type: "permission",
      tool_name: "Echo",
      tool_use_id: "t1",
      tool_input: { text: "a" },
      behavior: "allow",
    });
    session.close();
    const path = transcriptPath(cwd, session.sessionId);
    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", sessionId: session.sessionId, cwd });
    expect(lines.map((l) => l.type)).toEqual([
      "session",
      "user",
      "assistant",
      "user",
      "assistant",
      "result",
      "permission",
    ]);
    const loaded = loadSession(cwd, session.sessionId);
    expect(loaded.messages).toEqual(session.messages);
    expect(loaded.warnings).toEqual([]);
  });

  it("has each message and result on disk by the time the front end is handed it", async () => {
    // A host that saw a stream-json line and then lost the process (kill -9) must find that
    // message in the transcript: the file is read synchronously as each event arrives.
    const cwd = tempDir();
    const { session } = sessionFor(
      cwd,
      [{ content: [toolUse("t1", "Echo", { text: "a" })] }, { content: [text("done")] }],
      { transcript: true },
    );
    const path = transcriptPath(cwd, session.sessionId);
    const onDisk = () => readFileSync(path, "utf8");
    const seen: string[] = [];
    for await (const event of session.submitMessage("hello")) {
      if (event.type === "assistant" || event.type === "user") {
        const last = event.message.content.at(-1);
        const marker =
          last?.type === "tool_use"
            ? `"id":"${last.id}"`
            : last?.type === "tool_result"
              ? `"tool_use_id":"${last.tool_use_id}"`
              : JSON.stringify(last?.type === "text" ? last.text : "");
        expect(onDisk()).toContain(marker);
        seen.push(event.type);
      }
      if (event.type === "terminal") {
        expect(onDisk()).toContain('"type":"result"');
        seen.push("terminal");
      }
    }
    expect(seen).toEqual(["assistant", "user", "assistant", "terminal"]);
    session.close();
  });

  it("skips a torn last line with a warning and keeps everything before it", () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path, { sessionId: "s", cwd: dir, model: "m" });
    writer.recordMessage({ role: "user", content: [{ type: "text", text: "one" }] });
    writer.recordMessage({ role: "assistant", content: [{ type: "text", text: "two" }] });
    writer.close();
    appendFileSync(path, '{"type":"message","message":{"role":"user","con');
    const loaded = loadTranscriptFile(path);
    expect(loaded.messages.map((m) => m.content[0])).toEqual([
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ]);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/last line is incomplete/);
  });

  it("resumed after a torn last line, starts its own entries on a line of their own: none is lost", () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path, { sessionId: "s", cwd: dir, model: "m" });
    writer.recordMessage({ role: "user", content: [{ type: "text", text: "one" }] });
    writer.close();
    appendFileSync(path, '{"type":"message","message":{"role":"user","con');
    const resumed = new TranscriptWriter(path, { sessionId: "s", cwd: dir, model: "m" });
    resumed.recordMessage({ role: "user", content: [{ type: "text", text: "after the crash" }] });
    resumed.close();
    const loaded = loadTranscriptFile(path);
    expect(loaded.messages.map((m) => m.content[0])).toEqual([
      { type: "text", text: "one" },
      { type: "text", text: "after the crash" },
    ]);
    // Only the torn line itself is reported; the resume marker after it is intact.
    expect(loaded.warnings).toEqual([expect.stringMatching(/line 3 is not valid JSON/)]);
    expect(readFileSync(path, "utf8").split("\n")[3]).toMatch(/^\{"type":"resume"/);
  });

  it("gives a tool call that never finished an error result, so the session can go on", () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path, { sessionId: "s", cwd: dir, model: "m" });
    writer.recordMessage({ role: "user", content: [{ type: "text", text: "go" }] });
    writer.recordMessage({
      role: "assistant",
      content: [{ type: "tool_use", id: "t9", name: "Bash", input: { command: "sleep 100" } }],
    });
    writer.close();
    const { messages } = loadTranscriptFile(path);
    const last = messages.at(-1);
    expect(last?.role).toBe("user");
    const block = last?.content[0];
    expect(block).toMatchObject({ type: "tool_result", tool_use_id: "t9", is_error: true });
    // The model is told which command was cut off and that it may have run partly.
    const text = block?.type === "tool_result" ? String(block.content) : "";
    expect(text).toContain("`sleep 100`");
    expect(text).toMatch(/may have run partly/);
  });

  it("finds the latest session of a directory and refuses ids that are paths", () => {
    const cwd = tempDir();
    expect(latestSessionId(cwd)).toBeUndefined();
    for (const [id, time] of [
      ["old", 1_000],
      ["new", 3_000],
      ["mid", 2_000],
    ] as const) {
      const writer = new TranscriptWriter(transcriptPath(cwd, id), { sessionId: id, cwd, model: "m" });
      writer.recordMessage({ role: "user", content: [{ type: "text", text: id }] });
      writer.close();
      utimesSync(transcriptPath(cwd, id), time, time);
    }
    expect(latestSessionId(cwd)).toBe("new");
    expect(() => loadSession(cwd, "../../etc/passwd")).toThrow(/invalid session id/);
    expect(() => loadSession(cwd, "nope")).toThrow(
      /no conversation found with session ID: nope \(among the sessions of /,
    );
  });

  it("a session opened and left without a word (its hooks' outcomes only) leaves no file for --continue to take", () => {
    const cwd = tempDir();
    const talked = new TranscriptWriter(transcriptPath(cwd, "talked"), { sessionId: "talked", cwd, model: "m" });
    talked.recordEntry({ type: "hook_outcome", hookEvent: "SessionStart" });
    talked.recordMessage({ role: "user", content: [{ type: "text", text: "hello" }] });
    talked.close();
    utimesSync(transcriptPath(cwd, "talked"), 1_000, 1_000);
    const silent = new TranscriptWriter(transcriptPath(cwd, "silent"), { sessionId: "silent", cwd, model: "m" });
    silent.recordEntry({ type: "hook_outcome", hookEvent: "SessionStart" });
    silent.flush();
    silent.close();
    expect(existsSync(transcriptPath(cwd, "silent"))).toBe(false);
    expect(latestSessionId(cwd)).toBe("talked");
    // What came before the first message is kept, in order, once there is one.
    const types = readFileSync(transcriptPath(cwd, "talked"), "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(["session", "hook_outcome", "user"]);
    // A resumed file takes entries at once: it already holds a conversation.
    const resumed = new TranscriptWriter(transcriptPath(cwd, "talked"), { sessionId: "talked", cwd, model: "m" });
    resumed.recordEntry({ type: "hook_outcome", hookEvent: "SessionStart" });
    resumed.flush();
    expect(readFileSync(transcriptPath(cwd, "talked"), "utf8").trim().split("\n")).toHaveLength(5);
    resumed.close();
  });

  it("--resume takes a unique start of a session id (as /resume lists them) and names the sessions an ambiguous one fits", () => {
    const cwd = tempDir();
    for (const id of ["3f9a01c2-aaaa", "3f9a77d0-bbbb", "81c0e5aa-cccc"]) {
      const writer = new TranscriptWriter(transcriptPath(cwd, id), { sessionId: id, cwd, model: "m" });
      writer.recordMessage({ role: "user", content: [{ type: "text", text: `prompt of ${id}` }] });
      writer.close();
    }
    const loaded = loadSession(cwd, "81c0e5aa");
    expect(loaded.sessionId).toBe("81c0e5aa-cccc");
    expect(JSON.stringify(loaded.messages)).toContain("prompt of 81c0e5aa-cccc");
    expect(resolveSessionId(cwd, "3f9a01c2")).toBe("3f9a01c2-aaaa");
    expect(resolveSessionId(cwd, "3f9a77d0-bbbb")).toBe("3f9a77d0-bbbb");
    expect(() => loadSession(cwd, "3f9a")).toThrow(
      /"3f9a" starts the ids of 2 sessions \(3f9a01c2-aaaa, 3f9a77d0-bbbb\)/,
    );
    expect(() => loadSession(cwd, "ffff")).toThrow(
      /no conversation found with session ID: ffff \(among the sessions of /,
    );
  });

  it("marks a resumed file instead of writing a second header", () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    writeFileSync(
      path,
      `${JSON.stringify({ type: "session", version: 1, sessionId: "s", cwd: dir, model: "m", timestamp: "t" })}\n`,
    );
    const writer = new TranscriptWriter(path, { sessionId: "s", cwd: dir, model: "m" });
    writer.recordMessage({ role: "user", content: [{ type: "text", text: "again" }] });
    writer.close();
    const types = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).type);
    expect(types).toEqual(["session", "resume", "user"]);
  });

  it("resumes: the loaded conversation is sent again with the new prompt", async () => {
    const cwd = tempDir();
    const first = sessionFor(
      cwd,
      [{ content: [toolUse("t1", "Echo", { text: "a" })] }, { content: [text("first done")] }],
      { transcript: true },
    );
    await collect(first.session.submitMessage("first"));
    first.session.close();
    const loaded = loadSession(cwd, first.session.sessionId);
    const second = sessionFor(cwd, [{ content: [text("second done")] }], {
      transcript: true,
      sessionId: loaded.sessionId,
      initialMessages: loaded.messages,
    });
    await collect(second.session.submitMessage("second"));
    const sent = second.requests[0]?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(sent[4]?.content).toEqual([{ type: "text", text: "second" }]);
    second.session.close();
    expect(loadSession(cwd, loaded.sessionId).messages).toHaveLength(6);
  });

  it("writes an entry by the end of the event-loop turn, and still when the process exits at once", async () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path, { sessionId: "s", cwd: dir, model: "m" });
    writer.recordMessage({ role: "user", content: [{ type: "text", text: "soon on disk" }] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(path, "utf8")).toContain("soon on disk");
    writer.close();

    const exiting = join(dir, "exit.jsonl");
    const child = spawnSync(process.execPath, [builtFixture("session/fixtures/exit-after-record.ts"), exiting], {
      encoding: "utf8",
    });
    expect(child.status).toBe(3);
    expect(readFileSync(exiting, "utf8")).toContain("last words");
  });
});
