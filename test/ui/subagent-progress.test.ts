// A subagent's own tool calls on screen, in a real session (built-in tools, real files): while it
// works its latest calls are drawn under its Agent call, named by what they do, with a count of
// the earlier ones; when it ends they fold into one "Done (N tool uses · Ns)" line. A background
// agent, whose Agent call returned at once, is drawn on its own until it ends. The model is a small
// in-test provider, main loop and subagent told apart by ModelRequest.agent.
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import type { QueryEvent } from "../../src/loop/events.js";
import { createSession } from "../../src/loop/session.js";
import type { AssistantContentBlock } from "../../src/messages/types.js";
import type { ModelRequest, Provider } from "../../src/providers/types.js";
import { builtInTools } from "../../src/tools/registry.js";
import { TranscriptModel } from "../../src/ui/transcript/transcript-model.js";
import { allowAll, tempDir } from "../loop/helpers.js";

let render: typeof import("ink-testing-library").render;
let LivePart: typeof import("../../src/ui/app/LivePart.js").LivePart;
let ItemView: typeof import("../../src/ui/app/TranscriptView.js").ItemView;
beforeAll(async () => {
  ({ render } = await import("ink-testing-library"));
  ({ LivePart } = await import("../../src/ui/app/LivePart.js"));
  ({ ItemView } = await import("../../src/ui/app/TranscriptView.js"));
});

const plain = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, "");
const call = (id: string, name: string, input: Record<string, unknown>): AssistantContentBlock => ({
  type: "tool_use",
  id,
  name,
  input,
});

/** Answers the main loop and the child from their turn numbers: each script is played in order. */
function provider(main: AssistantContentBlock[][], child: AssistantContentBlock[][]): Provider {
  return {
    name: "scripted",
    async *stream(request: ModelRequest) {
      const turn = request.messages.filter((m) => m.role === "assistant").length;
      const script = request.agent ? child : main;
      const blocks = script[turn] ?? [{ type: "text", text: "(script over)" }];
      for (const block of blocks) yield { type: "block", block };
      yield { type: "stop", stopReason: blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn" };
    },
  };
}

function project(): string {
  const cwd = realpathSync(tempDir("warden-subagent-ui-"));
  writeFileSync(join(cwd, "sum.js"), "export const sum = (a, b) => a - b;\n");
  writeFileSync(join(cwd, "sum.test.js"), "import { sum } from './sum.js';\n");
  return cwd;
}

/** The child explores: four calls, then its report. */
const explore = (cwd: string): AssistantContentBlock[][] => [
  [call("c1", "Glob", { pattern: "**/*.js" })],
  [call("c2", "Grep", { pattern: "sum", glob: "*.js" })],
  [call("c3", "Read", { file_path: join(cwd, "sum.test.js") })],
  [call("c4", "Read", { file_path: join(cwd, "sum.js") })],
  [{ type: "text", text: "sum subtracts: sum.js line 1." }],
];

function frame(element: ReturnType<typeof createElement>): string {
  const app = render(element);
  const text = plain(app.lastFrame() ?? "");
  app.unmount();
  return text;
}

describe("a subagent's calls in the interactive UI", () => {
  it("a foreground agent's latest calls show under its Agent call as they finish, then fold into a Done line", async () => {
    const cwd = project();
    const agentCall = call("a1", "Agent", {
      description: "find the bug",
      prompt: "Find why sum is wrong.",
      subagent_type: "Explore",
    });
    const session = createSession({
      provider: provider([[agentCall], [{ type: "text", text: "Found it." }]], explore(cwd)),
      model: "scripted",
      tools: builtInTools(),
      canUseTool: allowAll,
      cwd,
      transcript: false,
      loadMemory: false,
    });
    const transcript = new TranscriptModel(() => session.tools, cwd);
    // What the live part shows each time one of the agent's calls finishes.
    const frames: string[] = [];
    session.observeSubagents((id, event) => {
      transcript.applySubagent(id, event, false);
      if (event.type === "tool_result")
        frames.push(
          frame(createElement(LivePart, { transcript, now: Date.now(), backgroundTasks: [], working: true })),
        );
    });
    for await (const event of session.submitMessage("Why does the sum test fail?")) transcript.apply(event);

    expect(frames).toHaveLength(4);
    // After the third call: all three by name, under the agent named by its description.
    expect(frames[2]).toContain("Explore(find the bug)");
    expect(frames[2]).toMatch(/⎿ {2}Search\(\*\*\/\*\.js\)\n\s+Search\(sum\)\n\s+Read\(sum\.test\.js\)/);
    // After the fourth: the latest three, the first as a count.
    expect(frames[3]).toMatch(
      /⎿ {2}Search\(sum\)\n\s+Read\(sum\.test\.js\)\n\s+Read\(sum\.js\)\n\s+\+1 more tool use\b/,
    );
    expect(frames[3]).not.toContain("**/*.js");
    for (const shown of frames) expect(shown).not.toMatch(/agent-[0-9a-f]{6,}/);

    // Finished: one item for the Agent call, folded; nothing of the agent stays in the live part.
    const agentItem = transcript.items.find((item) => item.kind === "tool" && item.summary.startsWith("Explore("));
    if (!agentItem) throw new Error("no item for the Agent call");
    const finished = frame(createElement(ItemView, { item: agentItem }));
    expect(finished).toMatch(/● Explore\(find the bug\)\n\s+⎿ {2}Done \(4 tool uses · \d+s\)/);
    expect(finished).not.toContain("Read(");
    expect(transcript.subagents.byCall.size).toBe(0);
  });

  it("a background agent is drawn on its own while it works and written as one line when it ends", async () => {
    const cwd = project();
    const agentCall = call("b1", "Agent", {
      description: "survey the tests",
      prompt: "List the tests.",
      subagent_type: "general-purpose",
      run_in_background: true,
    });
    const session = createSession({
      provider: provider([[agentCall], [{ type: "text", text: "It runs in the background." }]], explore(cwd).slice(2)),
      model: "scripted",
      tools: builtInTools(),
      canUseTool: allowAll,
      cwd,
      transcript: false,
      loadMemory: false,
    });
    const transcript = new TranscriptModel(() => session.tools, cwd);
    const frames: string[] = [];
    const ended = new Promise<void>((resolve) => {
      session.observeBackgroundSubagents((id, event: QueryEvent) => {
        transcript.applySubagent(id, event, true);
        if (event.type === "tool_result")
          frames.push(
            frame(createElement(LivePart, { transcript, now: Date.now(), backgroundTasks: [], working: false })),
          );
        if (event.type === "terminal") resolve();
      });
    });
    for await (const event of session.submitMessage("Survey the tests.")) transcript.apply(event);
    await ended;

    expect(frames.length).toBe(2);
    expect(frames[1]).toMatch(/● general-purpose\(survey the tests\) \(in the background · \d+s\)/);
    expect(frames[1]).toMatch(/⎿ {2}Read\(sum\.test\.js\)\n\s+Read\(sum\.js\)/);
    // Ended: gone from the live part, one finished line in the transcript.
    const live = frame(createElement(LivePart, { transcript, now: Date.now(), backgroundTasks: [], working: false }));
    expect(live).not.toContain("survey the tests");
    const last = transcript.items.at(-1);
    if (last?.kind !== "tool") throw new Error("no item for the finished background agent");
    expect(frame(createElement(ItemView, { item: last }))).toMatch(
      /● general-purpose\(survey the tests\) · in the background\n\s+⎿ {2}Done \(2 tool uses · \d+s\)/,
    );
  });
});
