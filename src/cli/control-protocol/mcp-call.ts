// The SDK's direct MCP requests, outside the model's turns. mcp_call runs an MCP tool of the
// session as the model's own call of it runs: the same tool object, through the PreToolUse hooks,
// the permission engine (rules, mode, the host's canUseTool for an ask) and PostToolUse, with its
// result kept out of the conversation. Warden always checks (fail closed), whether or not the
// request sets check_permissions. mcp_read_resource reads a `ui://` resource of a connected server,
// as the protocol defines it, through the session's MCP client manager.
import type { ToolUseBlock } from "../../messages/types.js";
import { runToolUse } from "../../orchestration/run-tool-use.js";
import { findToolByName } from "../../tool/pool.js";
import type { JsonObject } from "./channel.js";
import type { StreamState } from "./stream-state.js";

async function mcpCall(request: JsonObject, state: StreamState): Promise<JsonObject> {
  const { session, canUseTool } = state.built;
  const name = request.tool;
  if (typeof name !== "string" || name === "") throw new Error("mcp_call: tool is missing");
  if (request.input_files !== undefined || request.output_files !== undefined) {
    throw new Error("mcp_call: staged calls (input_files, output_files) are not supported by Warden; nothing ran");
  }
  const args = request.arguments ?? {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new Error("mcp_call: arguments must be an object");
  }
  const tool = findToolByName(session.tools, name);
  if (!tool?.mcpInfo) throw new Error(`mcp_call: the session has no MCP tool named ${JSON.stringify(name)}`);
  if (state.sdkServers.some((server) => server.name === tool.mcpInfo?.serverName)) {
    throw new Error(`mcp_call: ${name} is a tool of an SDK server, which runs in your process: call it there`);
  }
  const block: ToolUseBlock = {
    type: "tool_use",
    id: `toolu_mcp_call_${crypto.randomUUID()}`,
    name,
    input: args as Record<string, unknown>,
  };
  const abort = new AbortController();
  const outcome = await runToolUse(block, session.toolUseContext(abort), canUseTool, undefined);
  if (outcome.denial) {
    throw new Error(`The tool did not run: ${resultText(outcome.result.content) || "permission was refused"}`);
  }
  if (outcome.output === undefined && outcome.result.is_error) {
    // Refused before it ran (bad input, a hook) or failed at the server: said as an error.
    throw new Error(`mcp_call: ${name}: ${resultText(outcome.result.content)}`);
  }
  return { content: outcome.result.content, isError: outcome.result.is_error === true };
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string }) => (block.type === "text" ? (block.text ?? "") : ""))
    .join("\n");
}

async function mcpReadResource(request: JsonObject, state: StreamState): Promise<JsonObject> {
  const server = request.serverName;
  const uri = request.uri;
  if (typeof server !== "string" || server === "") throw new Error("mcp_read_resource: serverName is missing");
  if (typeof uri !== "string" || !uri.startsWith("ui://")) {
    throw new Error(`mcp_read_resource: only ui:// resources are read this way, not ${JSON.stringify(uri)}`);
  }
  if (state.sdkServers.some((s) => s.name === server)) {
    throw new Error(`mcp_read_resource: "${server}" is an SDK server, which runs in your process: read it there`);
  }
  const contents = await state.built.mcp.live.readResource(server, uri);
  return { contents };
}

export async function handleMcpCallRequest(request: JsonObject, state: StreamState): Promise<JsonObject | undefined> {
  switch (request.subtype) {
    case "mcp_call":
      return mcpCall(request, state);
    case "mcp_read_resource":
      return mcpReadResource(request, state);
    default:
      return undefined;
  }
}
