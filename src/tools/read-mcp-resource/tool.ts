import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import type { ImageBlock, TextBlock } from "../../messages/types.js";
import { buildTool } from "../../tool/build-tool.js";
import {
  type McpResourceContents,
  type McpResourceSource,
  validateResourceServer,
} from "../../tool/mcp-resource-source.js";
import type { AnyTool } from "../../tool/types.js";
import { READ_MCP_RESOURCE_PROMPT } from "./prompt.js";

export const READ_MCP_RESOURCE_TOOL_NAME = "ReadMcpResource";

const inputSchema = z.strictObject({
  server: z.string().min(1).describe("The MCP server name"),
  uri: z.string().min(1).describe("The resource URI"),
});

export interface ReadMcpResourceOutput {
  blocks: Array<TextBlock | ImageBlock>;
}

/** Binary content the model cannot read inline goes to the session folder, named by its hash. */
async function saveBlob(item: McpResourceContents, sessionDir: string): Promise<string> {
  const bytes = Buffer.from(item.blob ?? "", "base64");
  const digest = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const subtype = (item.mimeType ?? "application/octet-stream").split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin";
  const dir = join(sessionDir, "mcp-resources");
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${digest}.${subtype}`);
  await writeFile(path, bytes);
  return path;
}

async function toBlocks(items: McpResourceContents[], sessionDir: string): Promise<Array<TextBlock | ImageBlock>> {
  const blocks: Array<TextBlock | ImageBlock> = [];
  for (const item of items) {
    if (item.text !== undefined) {
      blocks.push({ type: "text", text: item.text });
    } else if (item.blob !== undefined && item.mimeType?.startsWith("image/")) {
      blocks.push({ type: "image", source: { type: "base64", media_type: item.mimeType, data: item.blob } });
    } else if (item.blob !== undefined) {
      const path = await saveBlob(item, sessionDir);
      blocks.push({
        type: "text",
        text: `[binary resource ${item.uri} (${item.mimeType ?? "unknown type"}) saved to ${path}]`,
      });
    }
  }
  if (blocks.length === 0) blocks.push({ type: "text", text: "(the resource is empty)" });
  return blocks;
}

export function createReadMcpResourceTool(source: McpResourceSource): AnyTool {
  return buildTool<z.infer<typeof inputSchema>, ReadMcpResourceOutput>({
    name: READ_MCP_RESOURCE_TOOL_NAME,
    searchHint: "read mcp server resource by uri",
    inputSchema,
    shouldDefer: true,
    maxResultSizeChars: 100_000,
    isReadOnly: () => true,
    autoModeSafe: true,
    isConcurrencySafe: () => true,
    interruptBehavior: () => "cancel",
    description: async (input) => (input?.uri ? `Read ${input.uri} from ${input.server}` : "Read an MCP resource"),
    prompt: async () => READ_MCP_RESOURCE_PROMPT,
    toAutoClassifierInput: (input) => `${input.server} ${input.uri}`,
    async validateInput(input) {
      return validateResourceServer(source, input.server);
    },
    async call(input, context) {
      const items = await source.readResource(input.server, input.uri, context.abortController.signal);
      return { data: { blocks: await toBlocks(items, context.options.sessionDir) } };
    },
    mapToolResult(output, toolUseId) {
      return { type: "tool_result", tool_use_id: toolUseId, content: output.blocks };
    },
  });
}
