// The session's provider (src/cli/session/switchable-provider.ts): requests go to the model it was
// switched to; with --fallback-model, a request the main model failed before answering goes to the
// fallback. Without a fallback it hands back the target's own stream, adding no layer over each
// event of each answer (on the path from a response to its tool calls).
import { describe, expect, it } from "vitest";
import type { ResolvedModel } from "../../src/cli/session/model-choice.js";
import { switchableProvider } from "../../src/cli/session/switchable-provider.js";
import type { ModelRequest, Provider, ProviderEvent } from "../../src/providers/types.js";

function request(model: string): ModelRequest {
  return {
    model,
    system: "test",
    messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    tools: [],
    maxTokens: 100,
    signal: new AbortController().signal,
  };
}

/** A provider answering every request with `text`, or failing before any event; it records the models asked. */
function provider(name: string, answer: { text: string } | { fail: string }, asked: string[]): Provider {
  return {
    name,
    stream(req) {
      asked.push(req.model);
      return (async function* (): AsyncGenerator<ProviderEvent> {
        if ("fail" in answer) throw new Error(answer.fail);
        yield { type: "text_delta", text: answer.text };
      })();
    },
  };
}

function resolved(model: string, p: Provider): ResolvedModel {
  return { provider: p, model, label: `${p.name}:${model}` };
}

async function texts(events: AsyncIterable<ProviderEvent>): Promise<string> {
  let text = "";
  for await (const event of events) if (event.type === "text_delta") text += event.text;
  return text;
}

describe("the session's switchable provider", () => {
  it("hands back the target's own stream when there is no fallback", async () => {
    const answer: AsyncIterable<ProviderEvent> = (async function* () {
      yield { type: "text_delta", text: "as is" } as ProviderEvent;
    })();
    const target: Provider = { name: "main", stream: () => answer };
    const session = switchableProvider(resolved("big", target));
    expect(session.stream(request("big"))).toBe(answer);
    expect(await texts(answer)).toBe("as is");
  });

  it("sends the main loop's requests to the model switched to, and others where they ask", async () => {
    const asked: string[] = [];
    const main = provider("main", { text: "from main" }, asked);
    const other = provider("other", { text: "from other" }, asked);
    const session = switchableProvider(resolved("big", main));
    session.switchTo(resolved("small", other));
    expect(await texts(session.stream(request("big")))).toBe("from other");
    expect(await texts(session.stream(request("side-model")))).toBe("from main");
    expect(asked).toEqual(["small", "side-model"]);
  });

  it("answers from the fallback when the main model fails before sending anything", async () => {
    const asked: string[] = [];
    const session = switchableProvider(
      resolved("big", provider("main", { fail: "no such model" }, asked)),
      resolved("spare", provider("backup", { text: "from the fallback" }, asked)),
    );
    expect(await texts(session.stream(request("big")))).toBe("from the fallback");
    expect(asked).toEqual(["big", "spare"]);
  });

  it("passes the failure on when the fallback is the model that failed", async () => {
    const asked: string[] = [];
    const failing = provider("main", { fail: "overloaded" }, asked);
    const session = switchableProvider(resolved("big", failing), resolved("big", failing));
    await expect(texts(session.stream(request("big")))).rejects.toThrow("overloaded");
  });
});
