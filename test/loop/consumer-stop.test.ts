import { describe, expect, it } from "vitest";
import { createSession } from "../../src/loop/session.js";
import type { Provider, ProviderEvent } from "../../src/providers/types.js";
import type { AnyTool } from "../../src/tool/types.js";
import { allowAll, EchoTool, tempDir } from "./helpers.js";

describe("a consumer that stops listening mid-prompt", () => {
  it("closes the model stream, pairs the tool calls and frees the session", async () => {
    let streamClosed = false;
    let calls = 0;
    const provider: Provider = {
      name: "scripted",
      async *stream(request): AsyncGenerator<ProviderEvent> {
        calls++;
        if (calls > 1) {
          yield { type: "block", block: { type: "text", text: "second prompt answered" } };
          yield { type: "stop", stopReason: "end_turn" };
          return;
        }
        try {
          yield { type: "block", block: { type: "tool_use", id: "t1", name: "Echo", input: { text: "a" } } };
          yield { type: "text_delta", text: "still talking" };
          // The model would never finish this turn; only the request's abort signal ends it.
          await new Promise((resolve) => request.signal.addEventListener("abort", resolve));
        } finally {
          streamClosed = true;
        }
      },
    };
    const session = createSession({
      provider,
      model: "m",
      tools: [EchoTool as AnyTool],
      canUseTool: allowAll,
      cwd: tempDir(),
      transcript: false,
      loadMemory: false,
    });
    for await (const event of session.submitMessage("first")) {
      if (event.type === "text_delta") break;
    }
    expect(session.isRunning).toBe(false);
    const uses = session.messages.flatMap((m) =>
      m.role === "assistant" ? m.content.filter((b) => b.type === "tool_use") : [],
    );
    const results = session.messages.flatMap((m) =>
      m.role === "user" ? m.content.filter((b) => b.type === "tool_result") : [],
    );
    expect(uses).toHaveLength(1);
    expect(results).toHaveLength(1);
    expect(streamClosed).toBe(true);
    const events = [];
    for await (const event of session.submitMessage("second")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "terminal", reason: "completed" });
  });
});
