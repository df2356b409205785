// The order of the stream-json wire as a host reads it: the assistant message that holds a tool
// call comes before any control request about that call, on every prompt of a session, and a
// foreground subagent's messages are streamed too, named by the Agent call they belong to.
import { describe, expect, it } from "vitest";
import { reply, startScriptedModelServer } from "../helpers/scripted-model-server.js";
import { isResult, type Line, RawSession } from "./raw-control.js";
import { workspace } from "./sdk-harness.js";

/** Answers every can_use_tool request with an allow, as a host's canUseTool would. */
function allowEverything(session: RawSession): void {
  const answer = (line: Line) => {
    const request = line.request as Line;
    session.write({
      type: "control_response",
      response: {
        subtype: "success",
        request_id: line.request_id,
        response: { behavior: "allow", updatedInput: request.input, toolUseID: request.tool_use_id },
      },
    });
    void session.next(isAsk).then(answer);
  };
  void session.next(isAsk).then(answer);
}

const isAsk = (line: Line) => line.type === "control_request" && (line.request as Line).subtype === "can_use_tool";

function toolUseIds(line: Line): string[] {
  const content = ((line.message as Line | undefined)?.content ?? []) as Line[];
  return content.filter((block) => block.type === "tool_use").map((block) => String(block.id));
}

/** Where on the wire each call was first shown in an assistant message, and where it was asked about. */
function positions(lines: Line[]) {
  const shown = new Map<string, number>();
  const asked = new Map<string, number>();
  lines.forEach((line, index) => {
    if (line.type === "assistant") for (const id of toolUseIds(line)) if (!shown.has(id)) shown.set(id, index);
    if (isAsk(line)) asked.set(String((line.request as Line).tool_use_id), index);
  });
  return { shown, asked };
}

describe("stream-json line order (Agent SDK wire)", () => {
  it("writes each assistant message before the can_use_tool about its calls, on every prompt, subagents included", async () => {
    const ws = workspace();
    // Calls start while the model streams; the pause after each block leaves the message unfinished
    // while the call is already asked about, as a real model's stream does.
    const server = await startScriptedModelServer();
    server.enqueue(
      // Prompt 1: one Write, asked about.
      reply()
        .text("Writing.")
        .tool("Write", { file_path: `${ws.cwd}/one.txt`, content: "1" }, { id: "w1" })
        .delay(40),
      reply().text("first done"),
      // Prompt 2: another Write, then a foreground agent whose own Write is asked about too.
      reply()
        .text("Again.")
        .tool("Write", { file_path: `${ws.cwd}/two.txt`, content: "2" }, { id: "w2" })
        .delay(40),
      reply().tool(
        "Agent",
        { description: "write three", prompt: "Write three.txt", subagent_type: "general-purpose" },
        { id: "a1" },
      ),
      reply()
        .text("On it.")
        .tool("Write", { file_path: `${ws.cwd}/three.txt`, content: "3" }, { id: "c1" })
        .delay(40),
      reply().text("three.txt written"),
      reply().text("second done"),
    );
    const session = new RawSession(ws, ["--model", "claude-sonnet-4-6", "--permission-prompt-tool", "stdio"], {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.anthropicBaseURL,
    });
    let second: Line;
    try {
      allowEverything(session);
      await session.ok({ subtype: "initialize" });
      session.send("first");
      await session.next(isResult);
      session.send("second");
      second = await session.next(isResult);
      await session.close();
    } finally {
      await server.close();
    }
    expect(second).toMatchObject({ subtype: "success", result: "second done" });

    const { shown, asked } = positions(session.lines);
    expect([...asked.keys()].sort()).toEqual(["c1", "w1", "w2"]);
    // The main loop's calls first (the second prompt's was asked about too early), then the agent's.
    for (const id of ["w1", "w2", "c1"]) {
      expect(shown.get(id) ?? Number.POSITIVE_INFINITY, `${id} was asked about before it was shown`).toBeLessThan(
        asked.get(id) as number,
      );
    }

    // The subagent's messages: its prompt, its call, its tool result and its answer, all named by a1.
    const ofAgent = session.lines.filter((line) => line.parent_tool_use_id === "a1");
    expect(ofAgent.map((line) => line.type)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(ofAgent[0])).toContain("Write three.txt");
    expect(toolUseIds(ofAgent[1] as Line)).toEqual(["c1"]);
    expect(JSON.stringify(ofAgent[2])).toContain('"tool_use_id":"c1"');
    expect(JSON.stringify(ofAgent[3])).toContain("three.txt written");
    // Everything else is the main loop's, and the agent's lines come before the Agent call's result.
    const agentResult = session.lines.findIndex(
      (line) =>
        line.type === "user" && line.parent_tool_use_id === null && JSON.stringify(line).includes('"tool_use_id":"a1"'),
    );
    expect(session.lines.indexOf(ofAgent[3] as Line)).toBeLessThan(agentResult);
  });
});
