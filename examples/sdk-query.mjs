// query() with a string prompt, as with the Agent SDK: only the import changed
// (`from "@anthropic-ai/claude-agent-sdk"` → `from "warden"`). The replay provider plays a scripted
// model, so this runs without an API key: node examples/sdk-query.mjs
import { fileURLToPath } from "node:url";
import { query } from "warden";

const here = fileURLToPath(new URL(".", import.meta.url));
for await (const message of query({
  prompt: "Which example scripts are there?",
  options: { cwd: here, model: `replay:${here}sdk-query.jsonl`, allowedTools: ["Glob"] },
})) {
  if (message.type === "system" && message.subtype === "init") console.log(`session ${message.session_id}`);
  if (message.type === "assistant") {
    for (const block of message.message.content) if (block.type === "text") console.log(`assistant: ${block.text}`);
  }
  if (message.type === "result") console.log(`result: ${message.subtype} ${message.result} (${message.num_turns} turns)`);
}
