// The messages query() yields are typed as the Agent SDK types them: a union told apart by `type`
// (and `subtype` for system messages). A program written for the SDK narrows them and reads their
// fields with no cast; this file is such a program, so `npm run typecheck` fails when a field the
// SDK types is missing or `unknown` here, and the run checks the values are those typed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { query, type SDKResultMessage } from "../../src/index.js";
import { writeScript } from "../loop/helpers.js";

beforeAll(() => {
  process.env.WARDEN_HOME = mkdtempSync(join(tmpdir(), "warden-library-types-home-"));
});

describe("query()'s messages, narrowed as with the Agent SDK", () => {
  it("give the init's tools, the assistant's blocks, the tool results and the result's denials typed", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "warden-library-types-"));
    const script = writeScript(cwd, [
      { content: [{ type: "tool_use", id: "b1", name: "Bash", input: { command: "echo allowed" } }] },
      { content: [{ type: "tool_use", id: "b2", name: "Bash", input: { command: "rm -rf build" } }] },
      { content: [{ type: "text", text: "Done." }] },
    ]);
    const tools: string[] = [];
    const called: string[] = [];
    const said: string[] = [];
    const results: Array<{ id: string; isError: boolean }> = [];
    let result: SDKResultMessage | undefined;
    for await (const message of query({
      prompt: "Tidy up",
      options: {
        cwd,
        model: `replay:${script}`,
        canUseTool: async (_name, input) =>
          String(input.command).startsWith("echo")
            ? { behavior: "allow", updatedInput: input }
            : { behavior: "deny", message: "no deleting" },
      },
    })) {
      if (message.type === "system" && message.subtype === "init")
        tools.push(...message.tools.filter((t) => t === "Bash"));
      if (message.type === "assistant") {
        for (const block of message.message.content) {
          if (block.type === "tool_use") called.push(`${block.name} ${block.id}`);
          if (block.type === "text") said.push(block.text.trim());
        }
      }
      if (message.type === "user" && typeof message.message.content !== "string") {
        for (const block of message.message.content) {
          if (block.type === "tool_result") results.push({ id: block.tool_use_id, isError: block.is_error === true });
        }
      }
      if (message.type === "result") result = message;
    }
    expect(tools).toEqual(["Bash"]);
    expect(called).toEqual(["Bash b1", "Bash b2"]);
    expect(said).toEqual(["Done."]);
    expect(results).toEqual([
      { id: "b1", isError: false },
      { id: "b2", isError: true },
    ]);
    expect(result?.subtype).toBe("success");
    expect(
      result?.permission_denials.map((d) => `${d.tool_name} ${d.tool_use_id} ${String(d.tool_input.command)}`),
    ).toEqual(["Bash b2 rm -rf build"]);
    expect(result?.usage.output_tokens).toBeTypeOf("number");
  });
});
