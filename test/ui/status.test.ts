// The status line's cost: shown for a model with a price, left out for one without (a local or
// replay model), before its first request as after.
import { describe, expect, it } from "vitest";
import { createSession } from "../../src/loop/session.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { knownCost, sessionStatus } from "../../src/ui/app/status.js";
import { allowAll, collect, sessionFor, tempDir, text } from "../loop/helpers.js";

const idle = {
  running: { input: 0, output: 0 },
  lastContextTokens: undefined,
  hint: undefined,
  mode: "default" as const,
};

describe("the status line's cost", () => {
  it("is left out for a model without a price, before and after a request", async () => {
    const { session } = sessionFor(tempDir(), [{ content: [text("hi")] }]);
    expect(session.modelInfo.price).toBeUndefined();
    expect(sessionStatus({ ...idle, engine: session }).costUsd).toBeNull();
    await collect(session.submitMessage("hello"));
    expect(sessionStatus({ ...idle, engine: session }).costUsd).toBeNull();
  });

  it("is shown for a priced model, from 0", () => {
    const session = createSession({
      provider: createAnthropicProvider({ apiKey: "test-key" }),
      model: "claude-sonnet-4-5",
      tools: [],
      canUseTool: allowAll,
      cwd: tempDir(),
      transcript: false,
      loadMemory: false,
    });
    expect(session.modelInfo.price).toBeDefined();
    expect(knownCost(session)).toBe(0);
  });
});
