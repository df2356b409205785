import { describe, expect, it } from "vitest";
import { drainQueuedUserMessages, submitWhileRunning } from "../../src/loop/user-message-queue.js";
import { StreamingToolExecutor } from "../../src/orchestration/streaming-executor.js";
import type { AnyTool, CanUseTool } from "../../src/tool/types.js";
import { BashTool } from "../../src/tools/bash/tool.js";
import {
  allowAll,
  CallLog,
  call,
  collect,
  makeContext,
  resultsOf,
  standardTools,
  tempSessionDir,
  textOfResult,
} from "./fixtures.js";

async function executorWith(queryController = new AbortController()) {
  const log = new CallLog();
  const context = makeContext(standardTools(log), await tempSessionDir(), queryController);
  const executor = new StreamingToolExecutor({ context, canUseTool: allowAll });
  return { log, executor, queryController };
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe("ESC-style abort (user cancel)", () => {
  it("cancels every running call, 'block' ones included, and never starts the queued ones", async () => {
    const { log, executor, queryController } = await executorWith();
    const blocks = [
      call("Safe", { ms: 1 }, "finished"),
      call("CancelSafe", { ms: 5_000 }, "cancel-running"),
      call("BlockSafe", { ms: 5_000 }, "block-running"),
      call("Unsafe", { ms: 1 }, "queued"),
      call("Safe", { ms: 1 }, "queued-after"),
    ];
    for (const block of blocks) executor.addTool(block);
    await tick(20);
    queryController.abort();
    const results = resultsOf(await collect(executor.getRemainingResults()));

    expect(results.map((r) => r.tool_use_id)).toEqual(blocks.map((b) => b.id));
    expect(results[0]).toMatchObject({ content: "done finished" });
    expect(textOfResult(results[1]!)).toBe("Interrupted by the user: the tool call was cancelled before it finished.");
    expect(textOfResult(results[2]!)).toBe("Interrupted by the user: the tool call was cancelled before it finished.");
    expect(textOfResult(results[3]!)).toBe("Interrupted by the user: the tool call was not run.");
    expect(results.slice(1).every((r) => r.is_error === true)).toBe(true);
    expect(log.get("cancel-running").aborted).toBe(true);
    expect(log.get("block-running").aborted).toBe(true);
    expect(log.has("queued")).toBe(false);
    expect(log.has("queued-after")).toBe(false);
  });

  it("says a call stopped while its permission was still asked was not run (the person refused it with Esc)", async () => {
    const log = new CallLog();
    const queryController = new AbortController();
    const context = makeContext(standardTools(log), await tempSessionDir(), queryController);
    let asked!: () => void;
    const question = new Promise<void>((resolve) => {
      asked = resolve;
    });
    // The person's dialog: it answers only when the turn is stopped (Esc declines and interrupts).
    const canUseTool: CanUseTool = (_tool, _input, callContext) =>
      new Promise((resolve) => {
        asked();
        callContext.abortController.signal.addEventListener("abort", () =>
          resolve({
            behavior: "deny",
            message: "The user declined this call.",
            decisionReason: { type: "other", reason: "asked" },
          }),
        );
      });
    const executor = new StreamingToolExecutor({ context, canUseTool });
    executor.addTool(call("Unsafe", { ms: 1 }, "asked"));
    await question;
    queryController.abort();
    const results = resultsOf(await collect(executor.getRemainingResults()));
    expect(textOfResult(results[0]!)).toBe("Interrupted by the user: the tool call was not run.");
    expect(log.has("asked")).toBe(false);
  });

  it("pairs calls that arrive from the stream after the abort", async () => {
    const { log, executor, queryController } = await executorWith();
    queryController.abort();
    executor.addTool(call("Safe", {}, "after-abort"));
    const results = resultsOf(await collect(executor.getRemainingResults()));
    expect(results).toHaveLength(1);
    expect(results[0]!.is_error).toBe(true);
    expect(log.has("after-abort")).toBe(false);
  });
});

describe("a new user message while tools run", () => {
  it("may abort when every running call is 'cancel': those stop, queued ones never run", async () => {
    const { log, executor, queryController } = await executorWith();
    executor.addTool(call("CancelSafe", { ms: 5_000 }, "c1"));
    executor.addTool(call("CancelSafe", { ms: 5_000 }, "c2"));
    executor.addTool(call("Unsafe", { ms: 1 }, "waiting"));
    await tick();
    expect(executor.hasInterruptibleToolInProgress).toBe(true);
    queryController.abort("interrupt");
    const results = resultsOf(await collect(executor.getRemainingResults()));
    expect(results.map((r) => r.tool_use_id)).toEqual(["c1", "c2", "waiting"]);
    expect(textOfResult(results[0]!)).toMatch(/^Interrupted by the user's new message: the tool call was cancelled/);
    expect(textOfResult(results[2]!)).toMatch(/^Interrupted by the user's new message: the tool call was not run/);
    expect(log.get("c1").aborted).toBe(true);
    expect(log.has("waiting")).toBe(false);
  });

  it("must queue instead when a running call is 'block'", async () => {
    const { executor } = await executorWith();
    executor.addTool(call("CancelSafe", { ms: 5_000 }, "c"));
    executor.addTool(call("BlockSafe", { ms: 5_000 }, "b"));
    await tick();
    expect(executor.hasInterruptibleToolInProgress).toBe(false);
    executor.abort("user_cancel");
    await collect(executor.getRemainingResults());
  });

  it("is not interruptible when nothing runs (waiting for the model)", async () => {
    const { executor } = await executorWith();
    expect(executor.hasInterruptibleToolInProgress).toBe(false);
    executor.addTool(call("CancelSafe", { ms: 1 }, "quick"));
    await collect(executor.getRemainingResults());
    expect(executor.hasInterruptibleToolInProgress).toBe(false);
  });

  it("an 'interrupt' abort never stops a 'block' call: it runs to its own result", async () => {
    const { log, executor, queryController } = await executorWith();
    executor.addTool(call("CancelSafe", { ms: 5_000 }, "c"));
    executor.addTool(call("BlockSafe", { ms: 40 }, "b"));
    executor.addTool(call("Unsafe", { ms: 1 }, "queued"));
    await tick(1);
    // The point of the test: 'b' is still running when the interrupt arrives.
    expect(log.get("b").end).toBeUndefined();
    queryController.abort("interrupt");
    const results = resultsOf(await collect(executor.getRemainingResults()));
    expect(results.map((r) => r.tool_use_id)).toEqual(["c", "b", "queued"]);
    expect(results[0]!.is_error).toBe(true);
    expect(results[1]).toMatchObject({ content: "done b" });
    expect(results[1]!.is_error).toBeUndefined();
    expect(log.get("b").aborted).toBe(false);
    expect(results[2]!.is_error).toBe(true);
    expect(log.has("queued")).toBe(false);
  });

  it("is reflected in hasInterruptibleToolInProgress for an unsafe 'cancel' call too", async () => {
    const { executor, queryController } = await executorWith();
    executor.addTool(call("CancelUnsafe", { ms: 5_000 }, "cu"));
    await tick();
    expect(executor.hasInterruptibleToolInProgress).toBe(true);
    queryController.abort("interrupt");
    const results = resultsOf(await collect(executor.getRemainingResults()));
    expect(results[0]!.is_error).toBe(true);
  });
});

describe("every tool_use is paired after any interruption", () => {
  const reasons = [undefined, "interrupt"] as const;
  const momentsMs = [0, 3, 15, 40];
  for (const reason of reasons) {
    for (const moment of momentsMs) {
      it(`abort(${reason ?? "ESC"}) after ${moment} ms`, async () => {
        const { executor, queryController } = await executorWith();
        const blocks = [
          call("Safe", { ms: 2 }),
          call("CancelSafe", { ms: 20 }),
          call("BlockSafe", { ms: 25 }),
          call("Unsafe", { ms: 10 }),
          call("Bash", { ms: 5, fail: true }),
          call("Safe", { ms: 30 }),
          call("CancelUnsafe", { ms: 10 }),
        ];
        for (const block of blocks) executor.addTool(block);
        if (moment > 0) await tick(moment);
        queryController.abort(reason);
        const late = call("Safe", {});
        executor.addTool(late);
        const results = resultsOf(await collect(executor.getRemainingResults()));
        expect(results.map((r) => r.tool_use_id)).toEqual([...blocks, late].map((b) => b.id));
        expect(new Set(results.map((r) => r.tool_use_id)).size).toBe(results.length);
      });
    }
  }
});

describe("discard", () => {
  it("stops running calls and yields nothing (the response is being thrown away)", async () => {
    const { log, executor } = await executorWith();
    executor.addTool(call("BlockSafe", { ms: 5_000 }, "d1"));
    await tick();
    executor.discard();
    expect(await collect(executor.getRemainingResults())).toEqual([]);
    expect(log.get("d1").aborted).toBe(true);
  });
});

describe("the session-visible flag and queue", () => {
  it("mirrors hasInterruptibleToolInProgress into AppState as calls start and finish", async () => {
    const log = new CallLog();
    const context = makeContext(standardTools(log), await tempSessionDir());
    const watched = new StreamingToolExecutor({ context, canUseTool: allowAll });
    expect(context.getAppState().hasInterruptibleToolInProgress).toBeUndefined();
    watched.addTool(call("CancelSafe", { ms: 30 }, "flag-c"));
    expect(context.getAppState().hasInterruptibleToolInProgress).toBe(true);
    watched.addTool(call("BlockSafe", { ms: 30 }, "flag-b"));
    expect(context.getAppState().hasInterruptibleToolInProgress).toBe(false);
    await collect(watched.getRemainingResults());
    expect(context.getAppState().hasInterruptibleToolInProgress).toBe(false);
  });

  it("leaves the flag to the main thread: a subagent's executor does not write it", async () => {
    const context = { ...makeContext(standardTools(new CallLog()), await tempSessionDir()), agentId: "sub-1" };
    const child = new StreamingToolExecutor({ context, canUseTool: allowAll });
    child.addTool(call("CancelSafe", { ms: 20 }, "sub-c"));
    expect(child.hasInterruptibleToolInProgress).toBe(true);
    expect(context.getAppState().hasInterruptibleToolInProgress).toBeUndefined();
    await collect(child.getRemainingResults());
  });

  it("submitWhileRunning aborts with 'interrupt' only when the flag allows, and always queues", () => {
    const controller = new AbortController();
    const context = makeContext([], "/tmp", controller);
    const message = { role: "user" as const, content: [{ type: "text" as const, text: "next" }] };
    expect(submitWhileRunning(context, controller, message)).toBe("queued");
    expect(controller.signal.aborted).toBe(false);
    context.setAppState((s) => ({ ...s, hasInterruptibleToolInProgress: true }));
    expect(submitWhileRunning(context, controller, message)).toBe("interrupted");
    expect(controller.signal.reason).toBe("interrupt");
    expect(drainQueuedUserMessages(context)).toEqual([message, message]);
    expect(drainQueuedUserMessages(context)).toEqual([]);
  });
});

describe("ESC on a running Bash command", () => {
  it("gives the model the output the command had shown before it was stopped", async () => {
    const queryController = new AbortController();
    const context = makeContext([BashTool as AnyTool], await tempSessionDir(), queryController);
    const executor = new StreamingToolExecutor({ context, canUseTool: allowAll });
    executor.addTool(call("Bash", { command: "for i in 1 2 3; do echo step $i; done; sleep 30" }, "long-bash"));
    // Bash reports its last lines once it has run a while; ESC comes after the person saw them.
    const seen: unknown[] = [];
    while (!seen.some((p) => JSON.stringify(p).includes("step 3"))) {
      for (const update of executor.takeProgress()) if (update.type === "progress") seen.push(update.progress);
      await tick(50);
    }
    queryController.abort();
    const [result] = resultsOf(await collect(executor.getRemainingResults()));
    const text = textOfResult(result!);
    expect(result!.is_error).toBe(true);
    expect(text).toMatch(/^Interrupted by the user: the tool call was cancelled before it finished\./);
    expect(text).toContain("Output before it was stopped");
    expect(text).toContain("step 1\nstep 2\nstep 3");
  });
});
