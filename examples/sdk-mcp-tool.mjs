// An in-process MCP tool (tool() and createSdkMcpServer()), as with the Agent SDK: the model calls
// mcp__weather__forecast, the permission engine decides (allowedTools allows it), and the handler
// runs in this process. node examples/sdk-mcp-tool.mjs
import { fileURLToPath } from "node:url";
import { createSdkMcpServer, query, tool } from "warden";
import { z } from "zod";

const here = fileURLToPath(new URL(".", import.meta.url));
const weather = createSdkMcpServer({
  name: "weather",
  version: "1.0.0",
  tools: [
    tool("forecast", "The forecast for a city", { city: z.string() }, async ({ city }) => {
      console.log(`handler: forecast for ${city}`);
      return { content: [{ type: "text", text: `${city}: sunny, 24°C` }] };
    }),
  ],
});
for await (const message of query({
  prompt: "Weather in Lisbon?",
  options: {
    cwd: here,
    model: `replay:${here}sdk-mcp-tool.jsonl`,
    mcpServers: { weather },
    allowedTools: ["mcp__weather__forecast"],
  },
})) {
  if (message.type === "system" && message.subtype === "init") {
    console.log(`tools: ${message.tools.filter((name) => name.startsWith("mcp__")).join(", ")}`);
  }
  if (message.type === "user") {
    for (const block of message.message.content) {
      if (block.type === "tool_result") console.log(`tool result: ${JSON.stringify(block.content)}`);
    }
  }
  if (message.type === "result") console.log(`result: ${message.result}`);
}
