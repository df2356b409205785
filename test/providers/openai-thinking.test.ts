// A thinking budget reaches an OpenAI-compatible server as the reasoning effort it stands for,
// through the real OpenAI SDK to a scripted server; no budget, adaptive and disabled send nothing.
import { describe, expect, it } from "vitest";
import { createOpenAIProvider } from "../../src/providers/openai.js";
import type { ThinkingSetting } from "../../src/providers/types.js";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { drain, requestOf } from "./support.js";

const server = scriptedModelServerFixture("file");

async function effortSent(thinking: ThinkingSetting | undefined): Promise<unknown> {
  server.enqueue(reply().text("ok"));
  const provider = createOpenAIProvider({ apiKey: "test-key", baseURL: server.openaiBaseURL });
  const { error } = await drain(provider.stream(requestOf(thinking ? { thinking } : {})));
  expect(error).toBeUndefined();
  const body = server.requests.at(-1)?.body as Record<string, unknown>;
  return "reasoning_effort" in body ? body.reasoning_effort : "absent";
}

describe("thinking on an OpenAI-compatible server", () => {
  it("sends a budget as low, medium or high reasoning effort", async () => {
    expect(await effortSent({ type: "enabled", budgetTokens: 4_000 })).toBe("low");
    expect(await effortSent({ type: "enabled", budgetTokens: 10_000 })).toBe("medium");
    expect(await effortSent({ type: "enabled", budgetTokens: 31_999 })).toBe("high");
  });

  it("sends no reasoning effort without a budget", async () => {
    expect(await effortSent(undefined)).toBe("absent");
    expect(await effortSent({ type: "adaptive" })).toBe("absent");
    expect(await effortSent({ type: "disabled" })).toBe("absent");
  });
});
