// outputFormat (a JSON schema) and systemPrompt as the Claude Code preset with an addition, as with
// the Agent SDK: the result carries structured_output, validated against the schema.
// node examples/sdk-structured.mjs
import { fileURLToPath } from "node:url";
import { query } from "warden";

const here = fileURLToPath(new URL(".", import.meta.url));
for await (const message of query({
  prompt: "Is it sunny in Lisbon?",
  options: {
    cwd: here,
    model: `replay:${here}sdk-structured.jsonl`,
    systemPrompt: { type: "preset", preset: "claude_code", append: "Answer about the weather only." },
    outputFormat: {
      type: "json_schema",
      schema: {
        type: "object",
        properties: { city: { type: "string" }, sunny: { type: "boolean" } },
        required: ["city", "sunny"],
      },
    },
  },
})) {
  if (message.type === "result") console.log(`structured: ${JSON.stringify(message.structured_output)}`);
}
