// A query() that cannot start says why in its result, as `warden -p` says it on stderr: the
// library enters the session without the CLI's own checks of its flags.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { query, type SDKMessage } from "../../src/index.js";
import { writeScript } from "../loop/helpers.js";

beforeAll(() => {
  process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-library-setup-home-"));
});

describe("query() with a cwd that is not there", () => {
  it("ends with an error result naming the folder, and runs no tool", async () => {
    const scripts = mkdtempSync(join(tmpdir(), "warden-library-setup-"));
    const script = writeScript(scripts, [
      { content: [{ type: "tool_use", id: "b1", name: "Bash", input: { command: "pwd" } }] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const missing = join(scripts, "no-such-folder");
    const messages: SDKMessage[] = [];
    for await (const message of query({
      prompt: "hi",
      options: { cwd: missing, model: `replay:${script}`, allowedTools: ["Bash"] },
    })) {
      messages.push(message);
    }
    const result = messages.find((m) => m.type === "result");
    expect(result?.type === "result" && result.subtype).toBe("error_during_execution");
    expect(result?.type === "result" && result.errors?.join("\n")).toContain(`cwd ${missing} does not exist`);
    expect(messages.some((m) => m.type === "assistant")).toBe(false);
  });
});
