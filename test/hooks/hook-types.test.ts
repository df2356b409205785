// The hook types beyond `command`: http (a local server), prompt and agent (the session's replay
// provider answers as the model), and async command hooks, each through a real HookRunner.
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HooksConfig } from "../../src/config/settings-schema.js";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { interpolateHeader } from "../../src/hooks/http-hook.js";
import { hookPrompt, parseModelVerdict } from "../../src/hooks/model-hook.js";
import { createHookModels } from "../../src/hooks/session-hook-models.js";
import { createSession } from "../../src/loop/session.js";
import { submitWithHooks } from "../../src/loop/session-hooks.js";
import { createReplayProvider } from "../../src/providers/replay.js";
import type { CanUseTool } from "../../src/tool/types.js";
import { builtInTools } from "../../src/tools/registry.js";

process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-hook-types-home-"));
process.env.HOME = process.env.WARDEN_HOME;
process.env.WARDEN_MANAGED_SETTINGS = join(process.env.WARDEN_HOME, "no-policy.json");

const allowAll: CanUseTool = async () => ({ behavior: "allow" });
const tempDir = () => realpathSync(mkdtempSync(join(tmpdir(), "warden-hook-types-")));

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A local server: each path answers with its status and body; every request is kept. */
let server: ReturnType<typeof createServer>;
let base = "";
const received: Received[] = [];
const answers: Record<string, { status: number; body: string }> = {
  "/deny": {
    status: 200,
    body: JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "not on Fridays",
      },
    }),
  },
  "/empty": { status: 200, body: "" },
  "/broken": { status: 500, body: "boom" },
};

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => {
      raw += chunk;
    });
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: JSON.parse(raw || "{}") });
      const answer = answers[request.url ?? ""] ?? { status: 404, body: "" };
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(answer.body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

function runner(cwd: string, config: HooksConfig): HookRunner {
  return new HookRunner({ config, cwd, sessionId: "s-types" });
}

describe("http hooks", () => {
  it("POST the event's JSON and a JSON answer decides like a command's stdout", async () => {
    const cwd = tempDir();
    const hooks = runner(cwd, { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: `${base}/deny` }] }] });
    const result = await hooks.preToolUse("Bash", { command: "rm -rf build" }, "t1");
    expect(result).toMatchObject({ behavior: "deny", message: expect.stringContaining("not on Fridays") });
    const request = received.find((r) => r.path === "/deny");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
      session_id: "s-types",
      cwd,
    });
  });

  it("fill header variables only from allowedEnvVars", async () => {
    const cwd = tempDir();
    process.env.HOOK_TEST_TOKEN = "sekret";
    process.env.HOOK_TEST_OTHER = "leak";
    const hooks = runner(cwd, {
      PostToolUse: [
        {
          hooks: [
            {
              type: "http",
              url: `${base}/empty`,
              // biome-ignore lint/suspicious/noTemplateCurlyInString: a header naming a variable, as settings write it
              headers: { Authorization: "Bearer $HOOK_TEST_TOKEN", "X-Other": "[${HOOK_TEST_OTHER}]" },
              allowedEnvVars: ["HOOK_TEST_TOKEN"],
            },
          ],
        },
      ],
    });
    const result = await hooks.postToolUse("Read", { file_path: "/x" }, "ok", "t2");
    expect(result.errors).toEqual([]);
    const request = received.filter((r) => r.path === "/empty").at(-1);
    expect(request?.headers.authorization).toBe("Bearer sekret");
    expect(request?.headers["x-other"]).toBe("[]");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a header naming a variable, as settings write it
    expect(interpolateHeader("$A-${B}-$C", ["A", "B"], { A: "1", B: "2", C: "3" })).toBe("1-2-");
  });

  it("a non-2xx answer is a failed hook, which refuses a PreToolUse call", async () => {
    const cwd = tempDir();
    const hooks = runner(cwd, { PreToolUse: [{ hooks: [{ type: "http", url: `${base}/broken` }] }] });
    const result = await hooks.preToolUse("Bash", { command: "ls" }, "t3");
    expect(result).toMatchObject({ behavior: "deny", message: expect.stringContaining("HTTP 500") });
  });
});

describe("async command hooks", () => {
  it("do not hold up the event, and what they say reaches the session later", async () => {
    const cwd = tempDir();
    const go = join(cwd, "go");
    // The hook cannot finish before the test creates `go`, which it does only after the event returned.
    const context = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint found 2 warnings" },
    });
    writeFileSync(
      join(cwd, "slow.sh"),
      `cat > '${join(cwd, "input.json")}'\nwhile [ ! -e '${go}' ]; do sleep 0.05; done\nprintf '%s\\n' '${context}'\n`,
    );
    const hooks = runner(cwd, {
      PostToolUse: [{ hooks: [{ type: "command", command: `bash '${join(cwd, "slow.sh")}'`, async: true }] }],
    });
    const heard: string[] = [];
    hooks.onAsyncOutput((texts) => heard.push(...texts));
    const result = await hooks.postToolUse("Edit", { file_path: "a.ts" }, "done", "t4");
    expect(result).toEqual({ feedback: [], additionalContext: [], errors: [] });
    expect(existsSync(go)).toBe(false);
    writeFileSync(go, "");
    await hooks.backgroundSettled();
    expect(heard).toEqual(["lint found 2 warnings"]);
    expect(JSON.parse(readFileSync(join(cwd, "input.json"), "utf8"))).toMatchObject({ tool_name: "Edit" });
  });
});

describe("prompt and agent hooks", () => {
  it("the prompt names the event where $ARGUMENTS stands, and the verdict is read from the answer", () => {
    expect(hookPrompt("Check $ARGUMENTS now", { a: 1 })).toBe('Check {\n  "a": 1\n} now');
    expect(hookPrompt("Check it", { a: 1 })).toContain('The event:\n{\n  "a": 1\n}');
    expect(parseModelVerdict('Sure.\n```json\n{"ok": false, "reason": "tests fail"}\n```')).toEqual({
      ok: false,
      reason: "tests fail",
    });
    expect(parseModelVerdict("yes")).toBeUndefined();
  });

  function scripted(cwd: string, lines: object[], config: HooksConfig) {
    const script = join(cwd, "script.jsonl");
    writeFileSync(script, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const hooks = runner(cwd, config);
    const session = createSession({
      provider: createReplayProvider(script, { cwd }),
      model: "scripted",
      tools: builtInTools(),
      canUseTool: allowAll,
      cwd,
      transcript: false,
      loadMemory: false,
      appState: { hooks },
    });
    hooks.bindModels(createHookModels(session, allowAll));
    return { hooks, session };
  }

  it("a prompt hook's 'not ok' sends the model back to work from Stop, with its reason", async () => {
    const cwd = tempDir();
    const { session } = scripted(
      cwd,
      [
        { content: [{ type: "text", text: "All done." }] },
        { side: "hook", content: [{ type: "text", text: '{"ok": false, "reason": "you did not run the tests"}' }] },
        { content: [{ type: "text", text: "Tests ran." }] },
        { side: "hook", content: [{ type: "text", text: '{"ok": true}' }] },
      ],
      { Stop: [{ hooks: [{ type: "prompt", prompt: "Did the agent run the tests? $ARGUMENTS" }] }] },
    );
    for await (const _ of submitWithHooks(session, "fix it", session.getAppState().hooks as HookRunner, () => {}));
    const texts = JSON.stringify(session.messages);
    expect(texts).toContain("A Stop hook asked you to continue: you did not run the tests");
    expect(texts).toContain("Tests ran.");
  });

  it("an agent hook runs a read-only subagent that may read files before it answers", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "CHANGELOG.md"), "nothing yet\n");
    const { hooks } = scripted(
      cwd,
      [
        {
          agent: "hook-verifier",
          content: [{ type: "tool_use", id: "r1", name: "Read", input: { file_path: "{{cwd}}/CHANGELOG.md" } }],
        },
        {
          agent: "hook-verifier",
          content: [{ type: "text", text: '{"ok": false, "reason": "the changelog has no entry"}' }],
        },
      ],
      {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "agent", prompt: "Is the changelog updated before a release? $ARGUMENTS" }],
          },
        ],
      },
    );
    const result = await hooks.preToolUse("Bash", { command: "npm publish" }, "t5");
    expect(result).toMatchObject({ behavior: "deny", message: expect.stringContaining("the changelog has no entry") });
  });

  it("a prompt hook without a session model is a failure, which refuses a PreToolUse call", async () => {
    const hooks = runner(tempDir(), { PreToolUse: [{ hooks: [{ type: "prompt", prompt: "ok?" }] }] });
    const result = await hooks.preToolUse("Bash", { command: "ls" }, "t6");
    expect(result).toMatchObject({ behavior: "deny", message: expect.stringContaining("no model for hooks") });
  });
});
