// Warden as a library: your own loop on Warden's built-in tools and its permission engine, with
// the project's settings read as the CLI reads them. The replay provider plays a scripted model,
// so this runs without an API key: node examples/library-session.mjs
import { fileURLToPath } from "node:url";
import {
  builtInTools,
  createCanUseTool,
  createHeadlessAskHandler,
  createReplayProvider,
  createSession,
  loadSessionPermissions,
} from "warden";

const cwd = fileURLToPath(new URL(".", import.meta.url));
// The settings files and rules of this folder, with the rules given here as a CLI flag would give
// them: a folder not trusted can tighten what they allow, never loosen it.
const permissions = loadSessionPermissions({ cwd, cli: { allowedTools: ["Glob"] } });
for (const warning of permissions.warnings) console.error(warning);

const session = createSession({
  provider: createReplayProvider(`${cwd}library-session.jsonl`, { cwd }),
  model: "scripted",
  tools: builtInTools(),
  // Warden's own authority. With nobody to ask, a call that would ask is refused.
  canUseTool: createCanUseTool({ askHandler: createHeadlessAskHandler() }),
  permissionContext: permissions.permissionContext,
  isNonInteractive: true,
  cwd,
});
for await (const event of session.submitMessage("Which examples are there?")) {
  if (event.type === "tool_result") {
    const outcome = event.denial ? "denied" : event.result.is_error ? "failed" : "ran";
    console.log(`${event.toolUse.name}: ${outcome}`);
  }
  if (event.type === "assistant") {
    for (const block of event.message.content) if (block.type === "text") console.log(`assistant: ${block.text}`);
  }
  if (event.type === "terminal") console.log(`end: ${event.reason}`);
}
