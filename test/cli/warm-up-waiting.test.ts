// When the session counts as waiting on the model (src/cli/startup/warm-up.ts): only when a request has
// been out for the grace with no answer. A process kept busy past the grace by other work must not
// take an answer that is already in its socket, unread, for a silent model: it would start the
// warm-up (the Bash grammar's load, tens of ms) on the way to the response's tool calls.
// The model server runs on its own thread, so that it answers while this thread is kept busy, and
// says when it has, so that no timing is guessed.
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { watchRequests } from "../../src/cli/startup/warm-up.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { onNextRequestWritten } from "../../src/providers/http-fetch.js";
import type { ModelRequest } from "../../src/providers/types.js";
import { anthropicEvents } from "../helpers/scripted-model-wire.js";

/** Answers every request with `body` after `delayMs`, then sets `written[0]` and wakes a waiter. */
const SERVER = `
const { createServer } = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const written = new Int32Array(workerData.written);
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    setTimeout(() => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(workerData.body, () => {
        Atomics.store(written, 0, 1);
        Atomics.notify(written, 0);
      });
    }, workerData.delayMs);
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => server.close(() => process.exit(0)));
`;

const toolCallAnswer = anthropicEvents(
  {
    blocks: [{ type: "tool_use", id: "toolu_1", name: "Read", argumentPieces: ['{"file_path":"/tmp/x"}'] }],
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
    interleaveToolCalls: false,
  },
  "claude-test",
  "msg_1",
).join("");

let worker: Worker | undefined;
afterEach(async () => {
  worker?.postMessage("close");
  await worker?.terminate();
  worker = undefined;
});

async function startServer(delayMs: number): Promise<{ url: string; written: Int32Array }> {
  const written = new Int32Array(new SharedArrayBuffer(4));
  worker = new Worker(SERVER, { eval: true, workerData: { body: toolCallAnswer, delayMs, written: written.buffer } });
  const port = await new Promise<number>((resolve, reject) => {
    worker?.once("message", resolve);
    worker?.once("error", reject);
  });
  return { url: `http://127.0.0.1:${port}`, written };
}

function request(): ModelRequest {
  return {
    model: "claude-test",
    system: "test",
    messages: [{ role: "user", content: [{ type: "text", text: "read it" }] }],
    tools: [],
    maxTokens: 100,
    signal: new AbortController().signal,
  };
}

/** Streams one request through a watched provider; true when the session counted as waiting on the model. */
async function waitedOnModel(url: string, afterWritten?: () => void): Promise<boolean> {
  const watch = watchRequests(createAnthropicProvider({ baseURL: url, apiKey: "test" }));
  let waited = false;
  watch.whenWaitingOnModel(() => {
    waited = true;
  });
  const events = watch.provider.stream(request());
  // After the watch's own listener, which starts the grace.
  if (afterWritten) onNextRequestWritten(afterWritten);
  const types: string[] = [];
  for await (const event of events) types.push(event.type);
  expect(types).toContain("block");
  // Past anything the grace may still have scheduled.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return waited;
}

describe("waiting on the model", () => {
  it("is not declared when the answer arrived while the process was busy past the grace", async () => {
    const server = await startServer(0);
    const waited = await waitedOnModel(server.url, () => {
      // Busy (as on a loaded machine) until the answer is in the socket and the grace is over.
      const graceOver = Date.now() + 30;
      Atomics.wait(server.written, 0, 0, 10_000);
      while (Date.now() < graceOver) {
        // spin: the thread stays busy
      }
      expect(Atomics.load(server.written, 0)).toBe(1);
    });
    expect(waited).toBe(false);
  });

  it("is declared when the model is silent past the grace", async () => {
    const server = await startServer(200);
    expect(await waitedOnModel(server.url)).toBe(true);
  });
});
