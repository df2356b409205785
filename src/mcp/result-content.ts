// Turns what an MCP server returns into our content blocks: text stays text, images become image
// blocks the model can see, everything else becomes a short text the model can reason about.
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { ImageBlock, TextBlock } from "../messages/types.js";

export type McpContent = Array<TextBlock | ImageBlock>;

type ContentItem = CallToolResult["content"][number];
type ResourceContents = ReadResourceResult["contents"][number];

function text(value: string): TextBlock {
  return { type: "text", text: value };
}

function image(data: string, mimeType: string): ImageBlock {
  return { type: "image", source: { type: "base64", media_type: mimeType, data } };
}

function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

export function mapResourceContents(item: ResourceContents): TextBlock | ImageBlock {
  if ("text" in item && typeof item.text === "string") return text(item.text);
  const mimeType = item.mimeType ?? "application/octet-stream";
  const blob = "blob" in item && typeof item.blob === "string" ? item.blob : "";
  if (mimeType.startsWith("image/")) return image(blob, mimeType);
  return text(`[binary resource ${item.uri} (${mimeType}, ${approxBytes(blob)} bytes) not shown]`);
}

function mapItem(item: ContentItem): TextBlock | ImageBlock {
  switch (item.type) {
    case "text":
      return text(item.text);
    case "image":
      return image(item.data, item.mimeType);
    case "audio":
      return text(`[audio (${item.mimeType}, ${approxBytes(item.data)} bytes) not shown]`);
    case "resource_link":
      return text(
        `[resource link ${item.uri}${item.name ? ` "${item.name}"` : ""}${item.description ? `: ${item.description}` : ""}]`,
      );
    case "resource":
      return mapResourceContents(item.resource);
    default:
      return text(`[unsupported MCP content ${JSON.stringify(item).slice(0, 200)}]`);
  }
}

/**
 * The blocks for a tool result. Structured content is shown as JSON when the server sent no
 * content of its own (servers should send both, but not all do).
 */
export function mapCallToolResult(result: CallToolResult): McpContent {
  const blocks = (result.content ?? []).map(mapItem);
  if (blocks.length === 0 && result.structuredContent !== undefined) {
    blocks.push(text(JSON.stringify(result.structuredContent, null, 2)));
  }
  if (blocks.length === 0) blocks.push(text("(the tool returned no content)"));
  return blocks;
}
