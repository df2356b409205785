// The permission mode switched from the SDK's side (the library's query() speaks the control
// protocol in memory: set_permission_mode) goes through the session's command surface as the UI's
// and ACP's do: plan mode entered there remembers the mode to come back to, so ExitPlanMode's
// approval returns to it (not to default), and bypassPermissions is refused unless the session
// made it available (allowDangerouslySkipPermissions, as with the Agent SDK).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { planFilePathIn, sessionArtifactsDir } from "../../src/config/paths.js";
import { query, type SDKMessage, type SDKUserMessage } from "../../src/sdk/index.js";
import { tempDir, writeScript } from "../loop/helpers.js";
import { resultText } from "./prompt-stream.js";

beforeAll(() => {
  process.env.WARDEN_HOME = tempDir("warden-library-modes-home-");
});

/** A prompt stream the test feeds one message at a time; it stays open until end(). */
function promptQueue(): { prompt: AsyncIterable<SDKUserMessage>; send: (text: string) => void; end: () => void } {
  const waiting: Array<(message: SDKUserMessage | undefined) => void> = [];
  const ready: Array<SDKUserMessage | undefined> = [];
  const push = (message: SDKUserMessage | undefined) => {
    const taker = waiting.shift();
    if (taker) taker(message);
    else ready.push(message);
  };
  async function* messages(): AsyncGenerator<SDKUserMessage> {
    while (true) {
      const next =
        ready.length > 0 ? ready.shift() : await new Promise<SDKUserMessage | undefined>((r) => waiting.push(r));
      if (!next) return;
      yield next;
    }
  }
  return {
    prompt: messages(),
    send: (text) => push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null }),
    end: () => push(undefined),
  };
}

describe("the permission mode switched over the control protocol", () => {
  it("plan mode entered with setPermissionMode returns to the mode before it when the plan is approved", async () => {
    const cwd = tempDir("warden-library-plan-");
    const script = writeScript(cwd, [
      { content: [{ type: "text", text: "ready" }] },
      { content: [{ type: "tool_use", id: "exit", name: "ExitPlanMode", input: {} }] },
      { content: [{ type: "text", text: "carrying it out" }] },
    ]);
    const input = promptQueue();
    const q = query({
      prompt: input.prompt,
      options: {
        cwd,
        model: `replay:${script}`,
        permissionMode: "acceptEdits",
        // The person approves the plan.
        canUseTool: async (_tool, toolInput) => ({ behavior: "allow", updatedInput: toolInput }),
      },
    });
    input.send("hello");
    const messages: SDKMessage[] = [];
    let results = 0;
    for await (const message of q) {
      messages.push(message);
      if (message.type !== "result") continue;
      results += 1;
      if (results === 1) {
        // The plan the model would have written, where the session's plan file is.
        const planFile = planFilePathIn(sessionArtifactsDir(cwd, String(message.session_id)));
        mkdirSync(join(planFile, ".."), { recursive: true });
        writeFileSync(planFile, "# Plan\n1. Do it\n");
        await q.setPermissionMode("plan");
        input.send("plan it");
      } else input.end();
    }
    expect(resultText(messages, "exit")).toContain("the permission mode is now acceptEdits");
  }, 60_000);

  it("refuses bypassPermissions unless the session allowed it", async () => {
    const refusing = await modeSwitch({});
    await expect(refusing.switchTo("bypassPermissions")).rejects.toThrow(/bypassPermissions/);
    await refusing.close();
    const allowing = await modeSwitch({ allowDangerouslySkipPermissions: true });
    await expect(allowing.switchTo("bypassPermissions")).resolves.toBeUndefined();
    await allowing.close();
  }, 60_000);
});

/** A session on the library's query() that answers once; its mode switch and its end. */
async function modeSwitch(options: { allowDangerouslySkipPermissions?: boolean }) {
  const cwd = tempDir("warden-library-bypass-");
  const script = writeScript(cwd, [{ content: [{ type: "text", text: "ok" }] }]);
  const input = promptQueue();
  const q = query({ prompt: input.prompt, options: { cwd, model: `replay:${script}`, ...options } });
  return {
    switchTo: (mode: "bypassPermissions") => q.setPermissionMode(mode),
    async close() {
      input.end();
      for await (const _message of q) {
        // drained: the session ends with the prompt stream
      }
    },
  };
}
