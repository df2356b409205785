// The gate that keeps a stream-json host's order (src/cli/headless/call-order.ts): a question about a
// call waits for the message that holds it, and never for a message that will not come.
import { describe, expect, it } from "vitest";
import { CallOrder, MAIN_STREAM } from "../../src/cli/headless/call-order.js";

/** Whether the promise has settled by the time queued callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("CallOrder", () => {
  it("holds a question while the message holding its call is being written, and lets it go once shown", async () => {
    const order = new CallOrder();
    order.streamStarted(MAIN_STREAM);
    const question = order.whenShown("t1");
    expect(await settled(question)).toBe(false);
    order.shown(["t1"]);
    order.streamEnded(MAIN_STREAM);
    expect(await settled(question)).toBe(true);
    // Later questions about a call already shown go at once.
    expect(await settled(order.whenShown("t1"))).toBe(true);
  });

  it("lets a question about a call no streamed message holds go when every open stream has ended", async () => {
    const order = new CallOrder();
    order.streamStarted(MAIN_STREAM);
    order.streamStarted("agent_call");
    const background = order.whenShown("bg1");
    order.shown(["m1"]);
    order.streamEnded(MAIN_STREAM);
    expect(await settled(background)).toBe(false);
    order.streamEnded("agent_call");
    expect(await settled(background)).toBe(true);
  });

  it("does not hold a question when nothing is being written, nor one whose call was given up", async () => {
    const order = new CallOrder();
    expect(await settled(order.whenShown("idle"))).toBe(true);
    order.streamStarted(MAIN_STREAM);
    const controller = new AbortController();
    const question = order.whenShown("t2", controller.signal);
    controller.abort();
    expect(await settled(question)).toBe(true);
  });
});
