// interrupt(), as with the Agent SDK: a command that never ends is stopped (with everything it
// started), and the query ends with its result. node examples/sdk-interrupt.mjs
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { query } from "warden";

const here = fileURLToPath(new URL(".", import.meta.url));
const cwd = mkdtempSync(join(tmpdir(), "warden-example-"));
const conversation = query({
  prompt: "Run the server",
  options: { cwd, model: `replay:${join(here, "sdk-interrupt.jsonl")}`, permissionMode: "bypassPermissions" },
});
const started = setInterval(() => {
  if (!existsSync(join(cwd, "started"))) return;
  clearInterval(started);
  console.log("command running: interrupting");
  void conversation.interrupt();
}, 50);
for await (const message of conversation) {
  if (message.type === "result") console.log(`result: ${message.subtype}`);
}
clearInterval(started);
