// The library's Agent SDK API (query, tool, createSdkMcpServer) through its runnable examples:
// each examples/sdk-*.mjs imports "warden" (the built package), runs in one process against the
// replay provider, and prints what it saw; each line checked here is a behaviour of the API.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

function runExample(name: string): string {
  const run = spawnSync(process.execPath, [join(ROOT, "examples", name)], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, HOME: join(ROOT, "node_modules", ".cache", "warden-examples-home") },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist", "index.js")))
    throw new Error("run `npm run build` first: the examples import the built package");
});

describe("Agent SDK API examples", () => {
  it("every example is run by a test here", () => {
    const examples = readdirSync(join(ROOT, "examples")).filter((f) => f.endsWith(".mjs"));
    const tested = readFileSync(new URL(import.meta.url), "utf8");
    for (const example of examples) expect(tested).toContain(`"${example}"`);
  });

  it("query() with a string prompt yields init, assistant and result messages", () => {
    const out = runExample("sdk-query.mjs");
    expect(out).toMatch(/^session [0-9a-f-]{36}$/m);
    expect(out).toContain("assistant: Let me look.");
    expect(out).toContain("result: success I found the example scripts. (2 turns)");
  });

  it("canUseTool allows one call and denies another; a PreToolUse hook callback blocks a tool", () => {
    const out = runExample("sdk-permissions.mjs");
    expect(out.split("\n").filter(Boolean)).toEqual([
      "asked: Bash echo allowed > allowed.txt",
      "result: ok (no output)",
      "asked: Bash rm -rf build",
      "result: error Deleting is not allowed here.",
      "hook: Write blocked",
      "result: error PreToolUse hook denied: No new files today.",
      "end: success, denials 2",
    ]);
  });

  it("an in-process SDK MCP tool is offered, allowed by the engine and run in the caller's process", () => {
    const out = runExample("sdk-mcp-tool.mjs");
    expect(out).toContain("tools: mcp__weather__forecast");
    expect(out).toContain("handler: forecast for Lisbon");
    expect(out).toContain('tool result: [{"type":"text","text":"Lisbon: sunny, 24°C"}]');
    expect(out).toContain("result: It will be sunny in Lisbon.");
  });

  it("streaming input runs several prompts in one session, with partial messages and setPermissionMode()", () => {
    const out = runExample("sdk-streaming.mjs");
    expect(out).toContain("result: Hello! What next?");
    expect(out).toContain("result: Saved your note.");
    expect(out).toContain("stream events: yes");
    // acceptEdits (set between the prompts) let the Write run without canUseTool.
    expect(out).toContain("note written: true");
  });

  it("outputFormat gives structured_output; systemPrompt takes the preset with an addition", () => {
    expect(runExample("sdk-structured.mjs")).toContain('structured: {"city":"Lisbon","sunny":true}');
  });

  it("interrupt() stops a command that never ends and the query still ends with its result", () => {
    const out = runExample("sdk-interrupt.mjs");
    expect(out).toContain("command running: interrupting");
    expect(out).toMatch(/^result: \w+/m);
  });

  it("the build emits the typed exports", () => {
    const types = readFileSync(join(ROOT, "dist", "types", "index.d.ts"), "utf8");
    expect(types).toContain("sdk/index.js");
    const library = readFileSync(join(ROOT, "dist", "types", "sdk", "index.d.ts"), "utf8");
    for (const name of ["query", "tool", "createSdkMcpServer", "Options", "SDKMessage", "Query"]) {
      expect(library).toContain(name);
    }
  });
});

describe("the library's own session (examples/library-session.mjs)", () => {
  it("runs Warden's built-in tools under its permission engine: a read allowed by a rule runs, a write nobody allowed is refused", () => {
    const out = runExample("library-session.mjs");
    expect(out.split("\n").filter(Boolean)).toEqual([
      "assistant: Let me list the scripts.",
      "Glob: ran",
      "Bash: denied",
      "assistant: There are six Agent SDK examples; I could not write a file, as the session only reads.",
      "end: completed",
    ]);
    expect(existsSync(join(ROOT, "examples", "library-session-was-here.txt"))).toBe(false);
  });
});
