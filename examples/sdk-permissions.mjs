// canUseTool and hooks, as with the Agent SDK: the permission engine asks canUseTool what its
// rules and mode leave open (here: allow echo, deny rm), and a PreToolUse hook callback blocks
// Write before any rule is consulted. node examples/sdk-permissions.mjs
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { query } from "warden";

const here = fileURLToPath(new URL(".", import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), "warden-example-"));
for await (const message of query({
  prompt: "Tidy up",
  options: {
    cwd,
    model: `replay:${join(here, "sdk-permissions.jsonl")}`,
    canUseTool: async (toolName, input) => {
      console.log(`asked: ${toolName} ${input.command}`);
      return String(input.command).startsWith("echo")
        ? { behavior: "allow", updatedInput: input }
        : { behavior: "deny", message: "Deleting is not allowed here." };
    },
    hooks: {
      PreToolUse: [
        {
          matcher: "Write",
          hooks: [
            async (input) => {
              console.log(`hook: ${input.tool_name} blocked`);
              return { decision: "block", reason: "No new files today." };
            },
          ],
        },
      ],
    },
  },
})) {
  if (message.type === "user") {
    for (const block of message.message.content) {
      if (block.type === "tool_result") console.log(`result: ${block.is_error ? "error" : "ok"} ${String(typeof block.content === "string" ? block.content : JSON.stringify(block.content)).slice(0, 60)}`);
    }
  }
  if (message.type === "result") console.log(`end: ${message.subtype}, denials ${message.permission_denials.length}`);
}
