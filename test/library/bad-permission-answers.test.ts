// A permission callback that answers something unusable (JavaScript, or a cast, lets it): the call
// is refused with words that say what came back, never run, and never run with its old input
// when the answer meant to change it. Both doors: createSession's canUseTool and query()'s. And a
// library's own tool whose call() returns something other than { data }: the model is told which.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import {
  buildTool,
  builtInTools,
  type CanUseTool,
  createReplayProvider,
  createSession,
  query,
} from "../../src/index.js";
import { writeScript } from "../loop/helpers.js";

beforeAll(() => {
  process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-library-answers-home-"));
});

const turns = [
  { content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "touch made.txt" } }] },
  { content: [{ type: "text", text: "end" }] },
];

describe("a permission callback's unusable answer", () => {
  it("refuses the call in createSession, naming what came back", async () => {
    const answers: Array<[unknown, RegExp]> = [
      [{ behavior: "maybe" }, /canUseTool returned \{"behavior":"maybe"\}; expected/],
      [undefined, /canUseTool returned undefined/],
      [{ behavior: "allow", updatedInput: "rm -rf /" }, /updatedInput "rm -rf \/" is not an object/],
      [{ behavior: "deny" }, /^Permission to use this tool was denied\.$/],
    ];
    for (const [answer, words] of answers) {
      const cwd = mkdtempSync(join(tmpdir(), "warden-library-answers-"));
      const session = createSession({
        provider: createReplayProvider(writeScript(cwd, turns), { cwd }),
        model: "scripted",
        cwd,
        tools: builtInTools(),
        canUseTool: (async () => answer) as unknown as CanUseTool,
      });
      const results: string[] = [];
      for await (const event of session.submitMessage("go")) {
        if (event.type === "tool_result") results.push(String(event.result.content));
      }
      expect(results, JSON.stringify(answer)).toEqual([expect.stringMatching(words)]);
      expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    }
  });

  it("refuses the call in query(), rather than running the input the callback meant to change", async () => {
    const answers: Array<[unknown, RegExp]> = [
      [{ behavior: "allow", updatedInput: "touch other.txt" }, /updatedInput that is not an object/],
      [{ behavior: "maybe" }, /canUseTool answered behavior "maybe"/],
    ];
    for (const [answer, words] of answers) {
      const cwd = mkdtempSync(join(tmpdir(), "warden-library-answers-"));
      const results: string[] = [];
      for await (const message of query({
        prompt: "go",
        options: { cwd, model: `replay:${writeScript(cwd, turns)}`, canUseTool: (async () => answer) as never },
      })) {
        if (message.type !== "user" || typeof message.message.content === "string") continue;
        for (const block of message.message.content)
          if (block.type === "tool_result") results.push(String(block.content));
      }
      expect(results, JSON.stringify(answer)).toEqual([expect.stringMatching(words)]);
      expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    }
  });
});

describe("a library tool whose call() returns no { data }", () => {
  it("gives the model an error naming the tool and what it returned", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-answers-"));
    const unwrapped = buildTool({
      name: "Unwrapped",
      inputSchema: z.object({}),
      prompt: async () => "returns nothing",
      call: (async () => undefined) as never,
      isReadOnly: () => true,
    });
    const script = writeScript(cwd, [
      { content: [{ type: "tool_use", id: "u1", name: "Unwrapped", input: {} }] },
      { content: [{ type: "text", text: "end" }] },
    ]);
    const session = createSession({
      provider: createReplayProvider(script, { cwd }),
      model: "scripted",
      cwd,
      tools: [unwrapped],
      canUseTool: async () => ({ behavior: "allow" }),
    });
    const results: string[] = [];
    for await (const event of session.submitMessage("go")) {
      if (event.type === "tool_result") results.push(String(event.result.content));
    }
    expect(results).toEqual(["Error: the Unwrapped tool's call() returned undefined, not { data }"]);
  });
});
