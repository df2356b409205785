// Streaming input, as with the Agent SDK: the prompt is an async iterable of user messages (one
// session, several prompts); includePartialMessages adds stream_event lines; setPermissionMode()
// switches to acceptEdits between prompts so the Write needs no asking; setModel() and
// interrupt() are there too. node examples/sdk-streaming.mjs
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { query } from "warden";

const here = fileURLToPath(new URL(".", import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), "warden-example-"));
let answered;
let firstResult = new Promise((resolve) => {
  answered = resolve;
});
async function* prompts() {
  yield { type: "user", message: { role: "user", content: "Hi" }, parent_tool_use_id: null };
  await firstResult;
  await conversation.setPermissionMode("acceptEdits");
  yield { type: "user", message: { role: "user", content: "Note: remember the milk" }, parent_tool_use_id: null };
}
const conversation = query({
  prompt: prompts(),
  options: { cwd, model: `replay:${join(here, "sdk-streaming.jsonl")}`, includePartialMessages: true },
});
let partial = 0;
for await (const message of conversation) {
  if (message.type === "stream_event") partial += 1;
  if (message.type === "result") {
    console.log(`result: ${message.result}`);
    answered();
  }
}
console.log(`stream events: ${partial > 0 ? "yes" : "no"}`);
console.log(`note written: ${existsSync(join(cwd, "notes.txt"))}`);
