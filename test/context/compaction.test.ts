// Compaction outside the long run: after a scripted prompt_too_long (Anthropic and OpenAI
// wordings), by hand (the library's compact() and `-p "/compact ..."` with PreCompact and
// PostCompact hooks), and `--resume` of a session that was compacted. Real providers and the
// real CLI against the scripted model server.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../../src/loop/session.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { createOpenAIProvider } from "../../src/providers/openai.js";
import type { AnyTool } from "../../src/tool/types.js";
import { jsonLines, runCli } from "../cli/run-cli.js";
import {
  httpError,
  type RecordedRequest,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { allowAll, collect, EchoTool, tempDir } from "../loop/helpers.js";

let server: ScriptedModelServer;
const savedHome = process.env.WARDEN_HOME;
beforeAll(async () => {
  server = await startScriptedModelServer();
  process.env.WARDEN_HOME = tempDir("warden-compaction-home-");
});
afterAll(async () => {
  await server.close();
  if (savedHome === undefined) delete process.env.WARDEN_HOME;
  else process.env.WARDEN_HOME = savedHome;
});

const messagesText = (request: RecordedRequest | undefined) =>
  JSON.stringify((request?.body as { messages?: unknown })?.messages ?? []);
const isSummaryRequest = (request: RecordedRequest | undefined) =>
  messagesText(request).includes("Your context window is nearly full");
/** The first message after the system prompt (OpenAI sends the system prompt as a message). */
const startsFromSummary = (request: RecordedRequest | undefined) => {
  const messages = (request?.body as { messages?: Array<{ role: string }> } | undefined)?.messages ?? [];
  const first = messages.find((m) => m.role !== "system");
  return JSON.stringify(first).includes("This session continues an earlier conversation");
};

function librarySession(protocol: "anthropic" | "openai") {
  const provider =
    protocol === "anthropic"
      ? createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" })
      : createOpenAIProvider({ baseURL: server.openaiBaseURL, apiKey: "test" });
  return createSession({
    provider,
    model: protocol === "anthropic" ? "claude-test" : "gpt-test",
    tools: [EchoTool] as AnyTool[],
    canUseTool: allowAll,
    cwd: tempDir(),
    transcript: false,
    loadMemory: false,
  });
}

describe("reactive compaction", () => {
  it.each([
    [
      "anthropic",
      httpError(400, { type: "invalid_request_error", message: "prompt is too long: 212000 tokens > 200000 maximum" }),
    ],
    [
      "openai",
      httpError(400, {
        body: {
          error: {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 131000 tokens.",
            type: "invalid_request_error",
            param: "messages",
            code: "context_length_exceeded",
          },
        },
      }),
    ],
  ] as const)("compacts and retries once after %s says the prompt is too long", async (protocol, tooLong) => {
    const start = server.requests.length;
    server.enqueue(
      reply().text("Echoing.").tool("Echo", { text: "first" }),
      tooLong,
      reply().text("Summary: the user asked for an echo; it said 'echo: first'."),
      reply().text("Finished after the summary."),
    );
    const session = librarySession(protocol);
    const { terminal, events } = await collect(session.submitMessage("echo first"));
    expect(terminal.reason).toBe("completed");
    const requests = server.requests.slice(start);
    expect(requests).toHaveLength(4);
    expect(isSummaryRequest(requests[1])).toBe(false);
    expect(isSummaryRequest(requests[2])).toBe(true);
    // The retry carries the summary instead of the conversation that did not fit.
    expect(startsFromSummary(requests[3])).toBe(true);
    expect(messagesText(requests[3])).toContain("Summary: the user asked for an echo");
    const boundary = events.find((e) => e.type === "compact_boundary");
    expect(boundary?.type === "compact_boundary" && boundary.trigger).toBe("auto");
    expect(server.pendingSteps()).toBe(0);
  });

  it("ends with prompt_too_long when the retry after the compaction is refused again", async () => {
    const start = server.requests.length;
    const tooLong = () =>
      httpError(400, { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" });
    server.enqueue(tooLong(), reply().text("Summary: nothing yet."), tooLong());
    const session = librarySession("anthropic");
    const { terminal } = await collect(session.submitMessage("hello"));
    expect(terminal.reason).toBe("prompt_too_long");
    expect(server.requests.length - start).toBe(3);
    expect(server.pendingSteps()).toBe(0);
  });
});

describe("manual compaction in the library", () => {
  it("summarises on request with the given instructions and continues from the summary", async () => {
    const start = server.requests.length;
    server.enqueue(
      reply().tool("Echo", { text: "alpha" }),
      reply().text("Echoed alpha."),
      reply().text("Summary: echoed alpha; keep the word alpha."),
      reply().text("Still know: alpha."),
    );
    const session = librarySession("anthropic");
    await collect(session.submitMessage("echo alpha"));
    const compaction = session.compact("Keep every echoed word.");
    const events = [];
    let step = await compaction.next();
    while (!step.done) {
      events.push(step.value);
      step = await compaction.next();
    }
    expect(step.value.ok).toBe(true);
    expect(events.map((e) => e.type)).toEqual(["compact_boundary"]);
    const summaryRequest = server.requests[start + 2];
    expect(isSummaryRequest(summaryRequest)).toBe(true);
    expect(messagesText(summaryRequest)).toContain("Keep every echoed word.");
    // A manual compaction waits for the user: no tool exchange is carried over.
    expect(session.messages.map((m) => m.role)).toEqual(["user"]);
    await collect(session.submitMessage("what did you echo?"));
    const next = server.requests[start + 3];
    expect(startsFromSummary(next)).toBe(true);
    expect(messagesText(next)).not.toContain('"text":"alpha"}');
    expect(messagesText(next)).toContain("what did you echo?");
  });
});

describe("compaction through the CLI", () => {
  it("writes a compact boundary that --resume continues from, runs the compact hooks, and /compacts by hand", async () => {
    const home = tempDir("warden-compaction-cli-home-");
    const cwd = tempDir("warden-compaction-cli-");
    const hookLog = join(cwd, "hooks.log");
    const hook = (name: string, body: string) => {
      const path = join(cwd, name);
      writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    };
    const settings = {
      // A tiny window for this model: compaction at about 6,300 tokens.
      models: { "anthropic:claude-test": { contextWindow: 8_000, maxOutputTokens: 1_000 } },
      hooks: {
        PreCompact: [
          {
            matcher: "manual|auto",
            hooks: [
              {
                type: "command",
                command: hook("pre.sh", `cat >> ${hookLog}; echo; echo "Keep the hook's marker HOOK-NOTE."`),
              },
            ],
          },
        ],
        PostCompact: [
          { hooks: [{ type: "command", command: hook("post.sh", `cat >> ${hookLog}; echo >> ${hookLog}`) }] },
        ],
      },
    };
    writeFileSync(join(cwd, "settings.json"), JSON.stringify(settings));
    const env = { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL };
    const args = (prompt: string, ...more: string[]) => [
      "-p",
      prompt,
      "--model",
      "anthropic:claude-test",
      "--output-format",
      "stream-json",
      "--settings",
      join(cwd, "settings.json"),
      "--cwd",
      cwd,
      ...more,
    ];

    // 1. The model reports a request of 7,000 tokens: the next one is compacted first.
    let start = server.requests.length;
    server.enqueue(
      reply().text("Echoing.").tool("Echo", { text: "one" }).usage({ input: 7_000, output: 20 }),
      reply().text("Summary: echoed 'one' for the user.").usage({ input: 900, output: 30 }),
      reply().text("Done with one.").usage({ input: 400, output: 5 }),
    );
    const first = await runCli(args("echo one"), { home, env });
    expect(first.code, first.stderr).toBe(0);
    const lines = jsonLines(first.stdout);
    const boundary = lines.find((l) => l.type === "system" && l.subtype === "compact_boundary");
    expect(boundary).toMatchObject({ compact_metadata: { trigger: "auto" } });
    expect((boundary?.compact_metadata as { pre_tokens?: number } | undefined)?.pre_tokens).toBeGreaterThan(6_300);
    const sessionId = lines.find((l) => l.type === "result")?.session_id as string;
    expect(isSummaryRequest(server.requests[start + 1])).toBe(true);
    expect(messagesText(server.requests[start + 1])).toContain("Keep the hook's marker HOOK-NOTE.");
    expect(startsFromSummary(server.requests[start + 2])).toBe(true);

    // 2. --resume continues from the summary, not from the messages before it.
    start = server.requests.length;
    server.enqueue(reply().text("Resumed.").usage({ input: 500, output: 5 }));
    const resumed = await runCli(args("and now?", "--resume", sessionId), { home, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const resumedRequest = server.requests[start];
    expect(startsFromSummary(resumedRequest)).toBe(true);
    expect(messagesText(resumedRequest)).toContain("Summary: echoed 'one' for the user.");
    expect(messagesText(resumedRequest)).not.toContain("echo one");
    expect(messagesText(resumedRequest)).toContain("and now?");

    // 3. /compact by hand, with instructions, on the resumed session.
    start = server.requests.length;
    server.enqueue(
      reply().text("Summary: resumed once; the user cares about 'one'.").usage({ input: 600, output: 20 }),
    );
    const manual = await runCli(args("/compact keep the word one", "--resume", sessionId), { home, env });
    expect(manual.code, manual.stderr).toBe(0);
    const manualLines = jsonLines(manual.stdout);
    expect(manualLines.find((l) => l.subtype === "compact_boundary")).toMatchObject({
      compact_metadata: { trigger: "manual" },
    });
    const result = manualLines.at(-1) as Record<string, unknown>;
    expect(result).toMatchObject({ type: "result", subtype: "success", num_turns: 0 });
    expect(result.result).toMatch(/^Compacted the conversation/);
    expect(server.requests.length - start).toBe(1);
    expect(messagesText(server.requests[start])).toContain("keep the word one");

    // The hooks saw each compaction: trigger, instructions, and the summary afterwards.
    const log = readFileSync(hookLog, "utf8")
      .split("\n")
      .filter((l) => l.trim().startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.map((entry) => [entry.hook_event_name, entry.trigger])).toEqual([
      ["PreCompact", "auto"],
      ["PostCompact", "auto"],
      ["PreCompact", "manual"],
      ["PostCompact", "manual"],
    ]);
    expect(log[2]?.custom_instructions).toBe("keep the word one");
    expect(log[3]?.compact_summary).toBe("Summary: resumed once; the user cares about 'one'.");

    // 4. Resuming after the manual compaction starts from its summary.
    start = server.requests.length;
    server.enqueue(reply().text("ok").usage({ input: 300, output: 2 }));
    const again = await runCli(args("continue", "--resume", sessionId), { home, env });
    expect(again.code, again.stderr).toBe(0);
    expect(messagesText(server.requests[start])).toContain("the user cares about 'one'");
    expect(messagesText(server.requests[start])).not.toContain("Resumed.");
    expect(server.pendingSteps()).toBe(0);
  }, 60_000);

  it("a PreCompact hook can refuse a manual compaction; /compact on a new session has nothing to do", async () => {
    const cwd = tempDir("warden-compaction-cli-");
    const gate = join(cwd, "gate.sh");
    writeFileSync(gate, `#!/usr/bin/env bash\necho "not now" >&2\nexit 2\n`);
    chmodSync(gate, 0o755);
    const settings = JSON.stringify({ hooks: { PreCompact: [{ hooks: [{ type: "command", command: gate }] }] } });
    const script = join(cwd, "script.jsonl");
    writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "hi" }] })}\n`);
    const home = tempDir("warden-compaction-cli-home-");
    const first = await runCli(
      ["-p", "hello", "--model", `replay:${script}`, "--output-format", "json", "--cwd", cwd],
      {
        home,
      },
    );
    expect(first.code, first.stderr).toBe(0);
    const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const refused = await runCli(
      ["-p", "/compact", "--resume", sessionId, "--model", `replay:${script}`, "--settings", settings, "--cwd", cwd],
      { home },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("compaction refused by a PreCompact hook: not now");
    const empty = await runCli(["-p", "/compact", "--model", `replay:${script}`, "--cwd", cwd], { home });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("there is no conversation to compact yet");
  }, 60_000);
});

describe("compaction edge cases", () => {
  it("cuts more of the conversation when the summary request itself is too long", async () => {
    const start = server.requests.length;
    const tooLong = () =>
      httpError(400, { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" });
    const turns = Array.from({ length: 6 }, (_, i) => reply().tool("Echo", { text: `x${i}`.repeat(2_000) }));
    server.enqueue(...turns, tooLong(), tooLong(), reply().text("Summary: six echoes."), reply().text("done"));
    const session = librarySession("anthropic");
    const { terminal } = await collect(session.submitMessage("echo six times"));
    expect(terminal.reason).toBe("completed");
    const [first, second] = server.requests.slice(start).filter(isSummaryRequest);
    const count = (r: RecordedRequest | undefined) =>
      (r?.body as { messages?: unknown[] } | undefined)?.messages?.length ?? 0;
    expect(count(second)).toBeLessThan(count(first));
    expect(messagesText(second)).toContain("[Earlier conversation snipped:");
    expect(server.pendingSteps()).toBe(0);
  });

  it("a resumed transcript starts at the last boundary and remembers the tools loaded before it", async () => {
    const { loadSession } = await import("../../src/session/transcript-reader.js");
    const cwd = tempDir();
    server.enqueue(reply().text("hello"), reply().text("Summary: said hello."));
    const session = createSession({
      provider: createAnthropicProvider({ baseURL: server.anthropicBaseURL, apiKey: "test" }),
      model: "claude-test",
      tools: [EchoTool] as AnyTool[],
      canUseTool: allowAll,
      cwd,
      loadMemory: false,
      appState: { loadedDeferredTools: ["mcp__gh__search"] },
    });
    await collect(session.submitMessage("say hello"));
    for await (const _ of session.compact()) {
      // events are checked elsewhere
    }
    session.close();
    const loaded = loadSession(cwd, session.sessionId);
    expect(loaded.loadedDeferredTools).toEqual(["mcp__gh__search"]);
    expect(loaded.messages).toHaveLength(2);
    expect(JSON.stringify(loaded.messages[0])).toContain("Summary: said hello.");
    expect(JSON.stringify(loaded.messages)).not.toContain("say hello");
  });
});
