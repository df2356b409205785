// The queues that hold MCP servers' requests for the person: one shown at a time, answered only by
// the person, withdrawn when the call that made them is cancelled.
import { describe, expect, it } from "vitest";
import { ElicitationQueue } from "../../src/ui/dialogs/elicitation-queue.js";
import { type SamplingQuestion, SamplingQueue } from "../../src/ui/dialogs/sampling-queue.js";

const sampling = (server: string): SamplingQuestion => ({
  server,
  params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 },
});

describe("SamplingQueue", () => {
  it("shows one request at a time and resolves each with the person's choice", async () => {
    const queue = new SamplingQueue();
    const first = queue.ask(sampling("a"), new AbortController().signal);
    const second = queue.ask(sampling("b"), new AbortController().signal);
    expect(queue.current?.question.server).toBe("a");
    queue.current?.answer("no");
    expect(await first).toBe(false);
    expect(queue.current?.question.server).toBe("b");
    queue.current?.answer("yes");
    expect(await second).toBe(true);
    expect(queue.current).toBeUndefined();
  });

  it("'always' remembers the server once, lets its waiting requests through and stops asking for it", async () => {
    const remembered: string[] = [];
    const queue = new SamplingQueue((server) => remembered.push(server));
    const signal = new AbortController().signal;
    const first = queue.ask(sampling("a"), signal);
    const other = queue.ask(sampling("b"), signal);
    const sameServer = queue.ask(sampling("a"), signal);
    queue.current?.answer("always");
    expect(await first).toBe(true);
    expect(await sameServer).toBe(true);
    expect(remembered).toEqual(["a"]);
    expect(queue.current?.question.server).toBe("b");
    expect(await queue.ask(sampling("a"), signal)).toBe(true);
    queue.current?.answer("no");
    expect(await other).toBe(false);
  });

  it("refuses a request whose call was cancelled, waiting or before it was asked", async () => {
    const queue = new SamplingQueue();
    const controller = new AbortController();
    const waiting = queue.ask(sampling("a"), controller.signal);
    let changes = 0;
    queue.subscribe(() => changes++);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(queue.current).toBeUndefined();
    expect(changes).toBe(1);
    expect(await queue.ask(sampling("a"), controller.signal)).toBe(false);
  });
});

describe("ElicitationQueue", () => {
  it("passes the person's answer through and cancels a withdrawn question", async () => {
    const queue = new ElicitationQueue();
    const params = {
      mode: "form" as const,
      message: "name?",
      requestedSchema: { type: "object" as const, properties: {} },
    };
    const controller = new AbortController();
    const answered = queue.ask({ server: "s", params }, new AbortController().signal);
    const withdrawn = queue.ask({ server: "s", params }, controller.signal);
    queue.current?.answer({ action: "accept", content: { name: "Ada" } });
    expect(await answered).toEqual({ action: "accept", content: { name: "Ada" } });
    controller.abort();
    expect(await withdrawn).toEqual({ action: "cancel" });
    expect(queue.current).toBeUndefined();
  });
});
