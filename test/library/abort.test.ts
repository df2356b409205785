// options.abortController on the library's query(), as on the Agent SDK's: aborting ends the
// iteration with an AbortError (the SDK's own class, exported under the same name) once the
// session has stopped, with no messages after the abort; a controller aborted before the query
// starts runs nothing.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AbortError, query, type SDKMessage } from "../../src/sdk/index.js";
import { writeScript } from "../loop/helpers.js";

beforeAll(() => {
  process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-library-abort-home-"));
});

async function drain(iterable: AsyncIterable<SDKMessage>, onMessage: (m: SDKMessage) => void = () => undefined) {
  const messages: SDKMessage[] = [];
  try {
    for await (const message of iterable) {
      messages.push(message);
      onMessage(message);
    }
  } catch (error) {
    return { messages, error };
  }
  return { messages, error: undefined };
}

describe("query() with an abortController", () => {
  it("ends with an AbortError once aborted, delivering nothing after the abort", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-abort-"));
    const script = writeScript(cwd, [
      { content: [{ type: "tool_use", id: "s1", name: "Bash", input: { command: "echo working" } }] },
      { content: [{ type: "text", text: "never reached" }] },
    ]);
    const abortController = new AbortController();
    let seenAtAbort = -1;
    const { messages, error } = await drain(
      query({ prompt: "wait", options: { cwd, model: `replay:${script}`, allowedTools: ["Bash"], abortController } }),
      (message) => {
        if (message.type === "assistant" && seenAtAbort < 0) {
          seenAtAbort = 1;
          abortController.abort();
        }
      },
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(messages.at(-1)?.type).toBe("assistant");
    expect(messages.some((m) => m.type === "result")).toBe(false);
  });

  it("runs nothing when the controller was aborted before the query started", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-abort-"));
    const script = writeScript(cwd, [
      {
        content: [
          { type: "tool_use", id: "w1", name: "Write", input: { file_path: join(cwd, "made.txt"), content: "x" } },
        ],
      },
      { content: [{ type: "text", text: "wrote it" }] },
    ]);
    const abortController = new AbortController();
    abortController.abort();
    const { messages, error } = await drain(
      query({ prompt: "write", options: { cwd, model: `replay:${script}`, allowedTools: ["Write"], abortController } }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(messages.filter((m) => m.type === "assistant" || m.type === "result")).toEqual([]);
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
  });
});
