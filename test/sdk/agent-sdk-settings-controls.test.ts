// The Agent SDK's settings and session questions against Warden's built CLI, each through the real
// SDK's Query method: getSettings() (the merge and every source), listPermissionRules() (rules with
// their sources), getHooksListing(), updateSettings() (written to the project's local file and in
// force at once; widening refused in a folder not trusted), applyFlagSettings({ model }),
// supportedModels(), the usage figures, readFile() (decided as a Read is) and renameSession() (the
// title the SDK's own getSessionInfo reads back). The replay model stands in for the model.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getSessionInfo, type Query, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { writeScript } from "../loop/helpers.js";
import { Prompts, sdkOptions, workspace } from "./sdk-harness.js";

const text = (t: string) => ({ type: "text", text: t });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });

/** Methods the SDK's Query object has at run time beyond those its type declares. */
interface MoreControls {
  getSettings(): Promise<{ effective: Record<string, unknown>; sources: Array<Record<string, unknown>> }>;
  getHooksListing(): Promise<{ events: Array<Record<string, unknown>>; hooks: Array<Record<string, unknown>> }>;
  listPermissionRules(): Promise<{ state: { rules: Array<Record<string, unknown>>; originalCwd: string } }>;
  renameSession(title: string, sessionId?: string): Promise<void>;
}
const more = (q: Query) => q as unknown as MoreControls;

/** The messages up to and with the next result; the query goes on. */
async function untilResult(q: Query): Promise<SDKMessage[]> {
  const seen: SDKMessage[] = [];
  while (true) {
    const next = await q.next();
    if (next.done) return seen;
    seen.push(next.value);
    if (next.value.type === "result") return seen;
  }
}

describe("Agent SDK settings and session controls", () => {
  it("lists settings with their sources, rules with theirs, and the hooks", async () => {
    const ws = workspace();
    writeFileSync(
      join(ws.home, "settings.json"),
      JSON.stringify({
        permissions: { allow: ["Bash(ls:*)"] },
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo checked" }] }] },
      }),
    );
    mkdirSync(join(ws.cwd, ".warden"));
    writeFileSync(join(ws.cwd, ".warden", "settings.json"), JSON.stringify({ permissions: { deny: ["Write"] } }));
    const script = writeScript(ws.cwd, [{ content: [text("ok")] }]);
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, { model: `replay:${script}`, allowedTools: ["Read(./docs/**)"] }),
    });
    const settings = await more(q).getSettings();
    expect(settings.effective).toMatchObject({
      permissions: { allow: ["Bash(ls:*)"], deny: ["Write"] },
      hooks: { PreToolUse: [{ matcher: "Bash" }] },
    });
    expect(settings.sources.map((s) => [s.source, s.path])).toEqual([
      ["userSettings", join(ws.home, "settings.json")],
      ["projectSettings", join(ws.cwd, ".warden", "settings.json")],
    ]);
    const { state } = await more(q).listPermissionRules();
    expect(state.originalCwd).toBe(ws.cwd);
    expect(state.rules.map((r) => [r.behavior, r.rule, r.source, r.editability])).toEqual(
      expect.arrayContaining([
        ["deny", "Write", "projectSettings", "persistent"],
        ["allow", "Bash(ls:*)", "userSettings", "persistent"],
        ["allow", "Read(./docs/**)", "cliArg", "session"],
      ]),
    );
    const hooks = await more(q).getHooksListing();
    expect(hooks.events).toEqual([
      { name: "PreToolUse", summary: "Before a tool runs", supportsMatcher: true, hookCount: 1 },
    ]);
    expect(hooks.hooks).toEqual([
      expect.objectContaining({
        event: "PreToolUse",
        matcher: "Bash",
        source: "userSettings",
        commandText: "echo checked",
      }),
    ]);
    prompts.end();
    for await (const _ of q) void _;
  }, 60_000);

  it("updateSettings() writes the local file and applies it; widening is refused in a folder not trusted", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      { content: [toolUse("w1", "Write", { file_path: join(ws.cwd, "blocked.txt"), content: "x" })] },
      { content: [text("refused")] },
    ]);
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, { model: `replay:${script}`, permissionMode: "acceptEdits" }),
    });
    await q.updateSettings("localSettings", { permissions: { deny: ["Write"] } });
    await expect(q.updateSettings("localSettings", { permissions: { allow: ["Bash"] } })).rejects.toThrow(
      /is not trusted, so settings may only restrict; nothing was written \(would widen: permissions\.allow\)/,
    );
    await expect(q.updateSettings("localSettings", { outputStyle: "Explanatory" })).rejects.toThrow(
      /not supported: outputStyle/,
    );
    const written = JSON.parse(readFileSync(join(ws.cwd, ".warden", "settings.local.json"), "utf8"));
    expect(written).toEqual({ permissions: { deny: ["Write"] } });
    prompts.send("write it");
    const seen = await untilResult(q);
    prompts.end();
    const result = seen.find((m) => m.type === "result");
    expect(result?.type === "result" && result.permission_denials.map((d) => d.tool_use_id)).toEqual(["w1"]);
    for await (const _ of q) void _;
  }, 60_000);

  it("switches the model with applyFlagSettings, lists models and usage, reads files as Read does, renames the session", async () => {
    const ws = workspace();
    writeFileSync(join(ws.cwd, "visible.txt"), "hello there\n");
    writeFileSync(join(ws.cwd, "secret.txt"), "top secret\n");
    const first = writeScript(ws.cwd, [
      { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/made.txt", content: "a\nb\n" })] },
      { content: [text("from the first model")] },
    ]);
    const second = writeScript(ws.cwd, [{ content: [text("from the second model")] }], "second.jsonl");
    const prompts = new Prompts();
    const q = query({
      prompt: prompts,
      options: sdkOptions(ws, {
        model: `replay:${first}`,
        permissionMode: "acceptEdits",
        disallowedTools: ["Read(./secret.txt)"],
      }),
    });
    const models = await q.supportedModels();
    expect(models[0]?.value).toBe(`replay:${first}`);
    prompts.send("one");
    await untilResult(q);
    const usage = await q.usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET();
    expect(usage.session).toMatchObject({ total_lines_added: 2, total_lines_removed: 0 });
    expect(usage.rate_limits_available).toBe(false);
    await q.applyFlagSettings({ model: `replay:${second}` });
    prompts.send("two");
    const seen = await untilResult(q);
    const result = seen.find((m) => m.type === "result");
    expect(result?.type === "result" && result.subtype === "success" && result.result).toBe("from the second model");
    expect(await q.readFile("visible.txt")).toMatchObject({
      contents: "hello there\n",
      absPath: join(ws.cwd, "visible.txt"),
      lossy: false,
    });
    expect(await q.readFile("visible.txt", { maxBytes: 5 })).toMatchObject({ contents: "hello", truncated: true });
    // A deny rule keeps it out, as it would keep out the model's Read; the SDK answers null.
    expect(await q.readFile("secret.txt")).toBeNull();
    const sessionId = result?.session_id ?? "";
    await more(q).renameSession("Fixing the parser");
    prompts.end();
    for await (const _ of q) void _;
    // The SDK's own session reader finds the title in Warden's transcript (CLAUDE_CONFIG_DIR = Warden's home).
    const before = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = ws.home;
    try {
      const info = await getSessionInfo(sessionId, { dir: ws.cwd });
      expect(info?.customTitle).toBe("Fixing the parser");
    } finally {
      if (before === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = before;
    }
  }, 60_000);
});
