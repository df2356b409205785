// The SDK's MCP control requests: mcp_status (each server live, in the SDK's McpServerStatus
// shape), mcp_set_servers (the SDK's setMcpServers: process servers run by the session's manager,
// in-process SDK servers reached through the control channel), mcp_reconnect and mcp_toggle.
import type { McpServerSnapshot } from "../../mcp/manager.js";
import type { JsonObject } from "./channel.js";
import { connectSdkMcpServers, type SdkMcpServer } from "./sdk-mcp.js";
import type { StreamState } from "./stream-state.js";

/** The SDK's status words; a server that went away or was shut is "failed", with its error. */
function sdkStatusWord(state: McpServerSnapshot["state"]): string {
  return state === "disconnected" || state === "closed" ? "failed" : state;
}

/** What a server runs or where it is, without its environment or headers (they may hold secrets). */
function publicConfig(config: McpServerSnapshot["config"]): JsonObject | undefined {
  if (!config) return undefined;
  if (config.type === "stdio") return { type: "stdio", command: config.command, args: config.args };
  return { type: config.type, url: config.url };
}

function serverStatus(server: McpServerSnapshot): JsonObject {
  const config = publicConfig(server.config);
  return {
    name: server.name,
    status: sdkStatusWord(server.state),
    ...(server.serverInfo && { serverInfo: server.serverInfo }),
    ...(server.error !== undefined && { error: server.error }),
    ...(config && { config }),
    scope: server.scope,
    source: server.scope,
    tools: server.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      annotations: {
        readOnly: tool.annotations?.readOnlyHint === true,
        destructive: tool.annotations?.destructiveHint === true,
        openWorld: tool.annotations?.openWorldHint === true,
      },
    })),
  };
}

function sdkServerStatus(server: SdkMcpServer): JsonObject {
  return {
    name: server.name,
    status: server.status,
    ...(server.error !== undefined && { error: server.error }),
    config: { type: "sdk", name: server.name },
    scope: "sdk",
    source: "sdk",
    tools: server.tools.map((tool) => ({ name: tool.mcpInfo?.toolName ?? tool.name })),
  };
}

function serverName(request: JsonObject, subtype: string): string {
  const name = request.serverName;
  if (typeof name !== "string" || name === "") throw new Error(`${subtype}: serverName is missing`);
  return name;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Answers an MCP control request, or returns undefined when `request` is not one. */
export async function handleMcpRequest(request: JsonObject, state: StreamState): Promise<JsonObject | undefined> {
  const live = state.built.mcp.live;
  switch (request.subtype) {
    case "mcp_status":
      return {
        mcpServers: [...live.servers().map(serverStatus), ...state.sdkServers.map(sdkServerStatus)],
      };
    case "mcp_reconnect": {
      const name = serverName(request, "mcp_reconnect");
      if (state.sdkServers.some((s) => s.name === name)) {
        throw new Error(`mcp_reconnect: "${name}" is an SDK server; it runs in the SDK's process`);
      }
      await live.reconnect(name);
      return {};
    }
    case "mcp_toggle": {
      const name = serverName(request, "mcp_toggle");
      if (typeof request.enabled !== "boolean") throw new Error("mcp_toggle: enabled must be true or false");
      if (state.sdkServers.some((s) => s.name === name)) {
        throw new Error(`mcp_toggle: "${name}" is an SDK server; remove it with setMcpServers instead`);
      }
      await live.setEnabled(name, request.enabled);
      return {};
    }
    case "mcp_set_servers":
      return { ...(await setServers(request.servers, state)) };
    default:
      return undefined;
  }
}

async function setServers(servers: unknown, state: StreamState) {
  if (!isRecord(servers)) throw new Error("mcp_set_servers: servers must be an object of server name to configuration");
  const processServers: Record<string, unknown> = {};
  const sdkNames: string[] = [];
  for (const [name, config] of Object.entries(servers)) {
    if (isRecord(config) && config.type === "sdk") sdkNames.push(name);
    else processServers[name] = config;
  }
  const outcome = await state.built.mcp.live.setServers(processServers);
  // In-process servers: the SDK has already connected the new ones on its side, and drops the rest.
  const gone = state.sdkServers.filter((s) => !sdkNames.includes(s.name));
  const fresh = sdkNames.filter((name) => !state.sdkServers.some((s) => s.name === name));
  const connected = fresh.length > 0 ? await connectSdkMcpServers(state.channel, fresh) : [];
  if (gone.length > 0 || connected.length > 0) {
    await Promise.all(gone.map((server) => server.close()));
    state.sdkServers = [...state.sdkServers.filter((s) => !gone.includes(s)), ...connected];
    state.built.setExtraMcpTools(state.sdkServers.flatMap((server) => server.tools));
  }
  for (const server of connected) {
    if (server.status === "failed") outcome.errors[server.name] = `failed: ${server.error ?? "no reason given"}`;
  }
  return {
    added: [...outcome.added, ...connected.map((s) => s.name)],
    removed: [...outcome.removed, ...gone.map((s) => s.name)],
    errors: outcome.errors,
  };
}
