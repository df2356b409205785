// Config, SendUserMessage and Sleep: their checks and permission behaviour through the real CLI
// against a model server on 127.0.0.1 (Config, SendUserMessage), and Sleep's wake-ups on a real
// session state.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { userText } from "../../src/messages/types.js";
import { persistUserSetting } from "../../src/permissions/settings/index.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { SleepTool } from "../../src/tools/sleep/tool.js";
import { jsonLines, runCli } from "../cli/run-cli.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { tempDir } from "../loop/helpers.js";

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());
afterEach(() => expect(server.pendingSteps()).toBe(0));

interface Project {
  home: string;
  cwd: string;
}
const project = (): Project => ({
  home: tempDir("warden-tools-home-"),
  cwd: realpathSync(tempDir("warden-tools-project-")),
});

function warden(p: Project, args: string[], withModel = true) {
  return runCli(
    [
      ...(withModel ? ["--model", "anthropic:claude-test"] : []),
      "--output-format",
      "stream-json",
      "--cwd",
      p.cwd,
      ...args,
    ],
    {
      home: p.home,
      env: {
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
        WARDEN_MANAGED_SETTINGS: join(p.home, "no-policy.json"),
      },
    },
  );
}

function resultText(index: number, id: string): string {
  const body = server.requests[index]?.body as
    | { messages: Array<{ content: Array<Record<string, unknown>> }> }
    | undefined;
  for (const block of (body?.messages ?? []).flatMap((m) => m.content)) {
    if (block.type === "tool_result" && block.tool_use_id === id) return JSON.stringify(block.content);
  }
  return "";
}

const denied = (stdout: string) =>
  ((jsonLines(stdout).find((l) => l.type === "result")?.permission_denials ?? []) as Array<{ tool_name: string }>).map(
    (d) => d.tool_name,
  );

describe("Config", () => {
  it("reads a setting unasked, with the file it came from", async () => {
    const p = project();
    const settings = join(p.home, "settings.json");
    writeFileSync(settings, JSON.stringify({ theme: "light" }));
    const at = server.requests.length;
    server.enqueue(
      reply()
        .tool("Config", { setting: "theme" }, { id: "get" })
        .tool("Config", { setting: "taskTools" }, { id: "unset" }),
      reply().text("ok"),
    );
    const run = await warden(p, ["-p", "what theme?"]);
    expect(run.code, run.stderr).toBe(0);
    expect(resultText(at + 1, "get")).toContain(`theme = \\"light\\" (from ${settings})`);
    expect(resultText(at + 1, "unset")).toContain("taskTools is not set");
    expect(denied(run.stdout)).toEqual([]);
  });

  it("asks before a change (refused headless), and saves it in the user's settings when allowed", async () => {
    const p = project();
    const settings = join(p.home, "settings.json");
    writeFileSync(settings, JSON.stringify({ permissions: { allow: ["Read"] }, theme: "dark" }));
    server.enqueue(reply().tool("Config", { setting: "theme", value: "light" }), reply().text("ok"));
    const refused = await warden(p, ["-p", "light theme please"]);
    expect(refused.code, refused.stderr).toBe(0);
    expect(denied(refused.stdout)).toEqual(["Config"]);
    expect(JSON.parse(readFileSync(settings, "utf8")).theme).toBe("dark");

    const at = server.requests.length;
    server.enqueue(
      reply()
        .tool("Config", { setting: "permissions.defaultMode", value: "acceptEdits" }, { id: "mode" })
        .tool("Config", { setting: "brief", value: "true" }, { id: "brief" }),
      reply().text("ok"),
    );
    const allowed = await warden(p, ["-p", "accept edits by default", "--allowedTools", "Config"]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(resultText(at + 1, "mode")).toContain("it was not set");
    // Saved beside what the file held, with the string "true" stored as a boolean.
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({
      permissions: { allow: ["Read"], defaultMode: "acceptEdits" },
      theme: "dark",
      brief: true,
    });
  });

  it("refuses unknown settings, bad values and bypassPermissions, and leaves a broken file alone", async () => {
    const p = project();
    const at = server.requests.length;
    server.enqueue(
      reply()
        .tool("Config", { setting: "permissions.allow", value: "Bash" }, { id: "unknown" })
        .tool("Config", { setting: "permissions.defaultMode", value: "bypassPermissions" }, { id: "bypass" })
        .tool("Config", { setting: "model", value: "not a model" }, { id: "model" }),
      reply().text("ok"),
    );
    const run = await warden(p, ["-p", "x", "--allowedTools", "Config"]);
    expect(run.code, run.stderr).toBe(0);
    expect(resultText(at + 1, "unknown")).toContain("Config knows no setting");
    expect(resultText(at + 1, "bypass")).toContain("permissions.defaultMode");
    expect(resultText(at + 1, "model")).toContain("must be provider:model");

    // The writer leaves a file it cannot read alone.
    vi.stubEnv("WARDEN_HOME", p.home);
    try {
      const settings = join(p.home, "settings.json");
      writeFileSync(settings, "{ broken");
      expect(() => persistUserSetting("theme", "light")).toThrow(/not valid JSON/);
      expect(readFileSync(settings, "utf8")).toBe("{ broken");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("settings model is the session's model when --model is not given", async () => {
    const p = project();
    writeFileSync(join(p.home, "settings.json"), JSON.stringify({ model: "anthropic:claude-from-settings" }));
    const at = server.requests.length;
    server.enqueue(reply().text("hello"));
    const run = await warden(p, ["-p", "hi"], false);
    expect(run.code, run.stderr).toBe(0);
    expect((server.requests[at]?.body as { model?: string } | undefined)?.model).toBe("claude-from-settings");
  });
});

describe("SendUserMessage", () => {
  it("is offered with --brief or settings brief, and each message is a brief line in stream-json", async () => {
    const p = project();
    const report = join(p.cwd, "report.md");
    writeFileSync(report, "# Report");
    server.enqueue(
      reply().tool("SendUserMessage", {
        message: "Halfway: **3 of 6** done",
        attachments: [report],
        status: "proactive",
      }),
      reply().text("All done."),
    );
    const run = await warden(p, ["-p", "work", "--brief"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]?.tools).toContain("SendUserMessage");
    expect(lines.find((l) => l.type === "brief")).toMatchObject({
      message: "Halfway: **3 of 6** done",
      attachments: [report],
      status: "proactive",
    });

    server.enqueue(reply().text("hi"));
    const off = await warden(p, ["-p", "work"]);
    expect(jsonLines(off.stdout)[0]?.tools).not.toContain("SendUserMessage");
    writeFileSync(join(p.home, "settings.json"), JSON.stringify({ brief: true }));
    server.enqueue(reply().text("hi"));
    const bySettings = await warden(p, ["-p", "work"]);
    expect(jsonLines(bySettings.stdout)[0]?.tools).toContain("SendUserMessage");
  });

  it("keeps a denied or missing attachment out", async () => {
    const p = project();
    mkdirSync(join(p.cwd, "secrets"));
    const secret = join(p.cwd, "secrets", "key.txt");
    writeFileSync(secret, "k");
    const at = server.requests.length;
    server.enqueue(
      reply()
        .tool("SendUserMessage", { message: "see", attachments: [secret] }, { id: "secret" })
        .tool("SendUserMessage", { message: "see", attachments: [join(p.cwd, "nope.md")] }, { id: "missing" }),
      reply().text("ok"),
    );
    const run = await warden(p, ["-p", "x", "--brief", "--disallowedTools", "Read(./secrets/**)"]);
    expect(run.code, run.stderr).toBe(0);
    expect(resultText(at + 1, "secret")).toContain("denied");
    expect(resultText(at + 1, "missing")).toContain("is not a file that exists");
    expect(jsonLines(run.stdout).filter((l) => l.type === "brief")).toEqual([]);
  });
});

describe("Sleep", () => {
  function sleepContext() {
    return createToolUseContext({
      options: {
        tools: [SleepTool],
        model: "test",
        cwd: "/",
        sessionId: "s",
        sessionDir: "/tmp/s",
        isNonInteractive: true,
      },
      appState: { toolPermissionContext: emptyPermissionContext("/") },
    });
  }
  const call = (context: ReturnType<typeof sleepContext>, seconds: number) =>
    SleepTool.call({ seconds }, context, async () => ({ behavior: "allow" }), undefined);

  it("waits out its time when nothing happens", async () => {
    const result = await call(sleepContext(), 0.2);
    expect(result.data.woke).toBe("time_up");
    expect(SleepTool.mapToolResult(result.data, "t").content).toContain("the time was up");
  });

  it("wakes early for a user message, a notification, or a cancel", async () => {
    const context = sleepContext();
    const message = call(context, 600);
    setTimeout(() => context.channels.userMessages.send(userText("hello")), 150);
    expect((await message).data.woke).toBe("user_message");
    // News still waiting (the loop has not taken it into a request yet): no wait at all.
    expect((await call(context, 600)).data.woke).toBe("user_message");
    context.channels.userMessages.drain();

    const notice = call(context, 600);
    setTimeout(() => context.channels.reminders.send("Background task 1 finished"), 150);
    expect((await notice).data.woke).toBe("notification");
    context.channels.reminders.drain();

    const cancelled = call(context, 600);
    setTimeout(() => context.abortController.abort("user"), 150);
    expect((await cancelled).data.woke).toBe("cancelled");
  });

  it("is bounded, and interruptible by a new message", () => {
    expect(SleepTool.inputSchema.safeParse({ seconds: 3601 }).success).toBe(false);
    expect(SleepTool.inputSchema.safeParse({ seconds: 0 }).success).toBe(false);
    expect(SleepTool.interruptBehavior()).toBe("cancel");
  });
});
