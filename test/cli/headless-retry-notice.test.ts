// A model request that fails and is retried is told on stderr in the text and json formats (a
// script sees why nothing comes yet), while stdout keeps only the answer; stream-json has its
// api_retry line instead (test/sdk/agent-sdk-options.test.ts).
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { httpError, reply } from "../helpers/scripted-model-server.js";
import { runCli } from "./run-cli.js";
import { cliProject, runScriptedCli, scriptedServerOfFile } from "./scripted-cli.js";

const server = scriptedServerOfFile();

describe("a retried model request in -p", () => {
  it("says on stderr what failed and when it tries again, and the answer alone reaches stdout", async () => {
    for (const format of ["text", "json"]) {
      server().enqueue(httpError(529, { retryAfterMs: 10, message: "Overloaded" }), reply().text("after a retry"));
      const run = await runScriptedCli(server(), cliProject("retry-notice"), ["-p", "hi", "--output-format", format]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /^warden: the model request failed \(529: [^\n]*Overloaded[^\n]*\); trying again in 0\.0 s \(retry 1 of \d+\)\n$/,
      );
      if (format === "text") expect(run.stdout.trim()).toBe("after a retry");
      else expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", result: "after a retry" });
    }
  });
});

/**
 * A model server whose first answer is a 200 stream with a line that is not JSON, and whose second
 * is `answer` (the raw SSE body of a good stream).
 */
async function brokenThenGoodServer(answer: string): Promise<{ url: string; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(++requests === 1 ? "event: message_start\ndata: {not json\n\n" : answer);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const sse = (events: object[]) =>
  events.map((e) => `${"type" in e ? `event: ${e.type}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join("");

describe("a model stream with a line that is not JSON", () => {
  it("is reported once, in Warden's words, without the provider SDK's own dump of the line", async () => {
    const anthropic = sse([
      {
        type: "message_start",
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          model: "m",
          content: [],
          stop_reason: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "fine now" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
      { type: "message_stop" },
    ]);
    const chunk = (delta: object, finish: string | null) => ({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const openai = `${sse([chunk({ role: "assistant", content: "fine now" }, null), chunk({}, "stop")])}data: [DONE]\n\n`;
    for (const [model, answer, env] of [
      ["anthropic:claude-test", anthropic, "ANTHROPIC_BASE_URL"],
      ["openai:gpt-test", openai, "OPENAI_BASE_URL"],
    ] as const) {
      const server = await brokenThenGoodServer(answer);
      const project = cliProject("broken-stream");
      const run = await runCli(["-p", "hi", "--model", model, "--cwd", project.cwd], {
        home: project.home,
        env: {
          ANTHROPIC_API_KEY: "test",
          OPENAI_API_KEY: "test",
          [env]: server.url,
          WARDEN_MANAGED_SETTINGS: join(project.home, "none.json"),
        },
      });
      await server.close();
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe("fine now");
      expect(run.stderr).toMatch(/^warden: the model request failed \([^\n]*JSON[^\n]*\); trying again in [^\n]*\n$/);
    }
  });
});
