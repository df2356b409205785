// Control requests of the Agent SDK's protocol that its Query object has no method for, sent as
// raw lines to Warden's built CLI: the version, the model list, the session's cost, file
// suggestions, a repository root, a queued message withdrawn, MCP tools called directly (through
// the permission engine), and the ones with no meaning here refused with a clear error.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeScript } from "../loop/helpers.js";
import { stdioServerConfig } from "../mcp/fixtures.js";
import { isResult, RawSession } from "./raw-control.js";
import { workspace } from "./sdk-harness.js";

const text = (t: string) => ({ type: "text", text: t });
const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });
const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

describe("control requests without an SDK method, over raw stdin", () => {
  it("answers version, models, subscribers, file suggestions and repository roots; refuses set_color and unknown ones", async () => {
    const ws = workspace();
    mkdirSync(join(ws.cwd, "src"));
    mkdirSync(join(ws.cwd, "pkg"));
    writeFileSync(join(ws.cwd, "src", "main.ts"), "export {};\n");
    writeFileSync(join(ws.cwd, "README.md"), "# x\n");
    const script = writeScript(ws.cwd, [{ content: [text("hi")] }]);
    const raw = new RawSession(ws, ["--model", `replay:${script}`], { OPENAI_API_KEY: "sk-test" });
    await raw.ok({ subtype: "initialize" });
    expect(await raw.ok({ subtype: "get_binary_version" })).toEqual({ version, name: "warden" });
    const { models } = (await raw.ok({ subtype: "list_models" })) as { models: Array<{ value: string }> };
    expect(models[0]?.value).toBe(`replay:${script}`);
    expect(models.map((m) => m.value)).toContain("openai:gpt-4.1");
    expect(models.map((m) => m.value)).not.toContain("sonnet");
    expect(await raw.ok({ subtype: "set_has_subscribers", has_subscribers: false })).toEqual({});
    expect(await raw.request({ subtype: "set_color", color: "red" })).toEqual({
      ok: false,
      error: "set_color: Warden's headless session has no accent colour; nothing was changed",
    });
    expect(await raw.request({ subtype: "frobnicate" })).toEqual({
      ok: false,
      error: 'unsupported control request: "frobnicate"',
    });
    const paths = async (query: string) =>
      (
        (await raw.ok({ subtype: "file_suggestions", query })) as { suggestions: Array<{ path: string }> }
      ).suggestions.map((s) => s.path);
    expect(await paths("sr")).toEqual(["src/", "src/main.ts"]);
    expect(await paths("main")).toEqual(["src/main.ts"]);
    expect(await paths("src/")).toEqual(["src/main.ts"]);
    expect(await raw.ok({ subtype: "register_repo_root", directory: "pkg" })).toEqual({
      directory: join(ws.cwd, "pkg"),
    });
    expect(await raw.request({ subtype: "register_repo_root", directory: "pkg" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/is already a working folder/),
    });
    expect(await raw.request({ subtype: "register_repo_root", directory: ws.home })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/is not inside the session's folder/),
    });
    expect(await raw.close()).toBe(0);
  }, 60_000);

  it("reports the session's cost with its code changes, and withdraws a queued message", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [
      {
        content: [
          toolUse("w1", "Write", { file_path: "{{cwd}}/notes.txt", content: "one\ntwo\nthree\n" }),
          toolUse("b1", "Bash", { command: "sleep 1" }),
        ],
        usage: { input_tokens: 1200, output_tokens: 30 },
      },
      { content: [text("first done")], usage: { input_tokens: 1300, output_tokens: 5 } },
      { content: [text("never asked")] },
    ]);
    const raw = new RawSession(ws, [
      "--model",
      `replay:${script}`,
      "--permission-mode",
      "acceptEdits",
      "--allowedTools=Bash(sleep:*)",
    ]);
    await raw.ok({ subtype: "initialize" });
    const firstResult = raw.next(isResult);
    raw.send("first");
    const second = raw.send("second, withdrawn");
    expect(await raw.ok({ subtype: "cancel_async_message", message_uuid: second })).toEqual({
      cancelled: true,
      message_uuid: second,
    });
    expect(await raw.ok({ subtype: "cancel_async_message", message_uuid: "not-a-message" })).toEqual({
      cancelled: false,
    });
    expect(await firstResult).toMatchObject({ subtype: "success", result: "first done" });
    const cost = (await raw.ok({ subtype: "get_session_cost" })) as { text: string; total_cost_usd: number | null };
    expect(cost.text).toContain("Total code changes:    3 lines added, 0 lines removed");
    expect(cost.text).toMatch(
      /Usage by model:\n {4}\S+: 2\.5k input, 35 output, 0 cache read, 0 cache write \(price unknown\)/,
    );
    // The replay model has no price: the cost is unknown, never a made-up zero.
    expect(cost.text).toMatch(/Total cost: +unknown/);
    expect(cost.total_cost_usd).toBeNull();
    expect(await raw.close()).toBe(0);
    expect(raw.lines.filter(isResult)).toHaveLength(1);
  }, 60_000);

  it("calls an MCP tool directly through the permission engine (mcp_call)", async () => {
    const ws = workspace();
    const script = writeScript(ws.cwd, [{ content: [text("unused")] }]);
    const config = JSON.stringify({ mcpServers: { demo: stdioServerConfig("demo-server.ts") } });
    const raw = new RawSession(ws, [
      "--model",
      `replay:${script}`,
      `--mcp-config=${config}`,
      "--allowedTools=mcp__demo__echo",
    ]);
    await raw.ok({ subtype: "initialize" });
    expect(
      await raw.ok({ subtype: "mcp_call", tool: "mcp__demo__echo", arguments: { text: "straight through" } }),
    ).toEqual({
      content: [{ type: "text", text: "straight through" }],
      isError: false,
    });
    // Not allowed by a rule: the engine asks, nobody can answer headless, so the call is refused.
    expect(await raw.request({ subtype: "mcp_call", tool: "mcp__demo__delete_everything" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The tool did not run: /),
    });
    expect(await raw.request({ subtype: "mcp_call", tool: "mcp__demo__nope" })).toEqual({
      ok: false,
      error: 'mcp_call: the session has no MCP tool named "mcp__demo__nope"',
    });
    expect(await raw.close()).toBe(0);
  }, 60_000);
});
