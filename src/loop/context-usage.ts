// What fills the model's context window, by kind, as Claude Code's /context shows it and the Agent
// SDK's getContextUsage() returns it: the system prompt, the tool schemas sent (built-in and MCP),
// the deferred tools named but not sent, the conversation, the room kept for compaction, and what
// is left. Figures are estimates (about four characters a token) except the conversation's total,
// which comes from the provider's last reported usage when there is one.
import type { ContextThresholds } from "../context/thresholds.js";
import { estimatePrefixTokens, estimateRequest, estimateTextTokens } from "../context/token-estimate.js";
import type { Message, Usage } from "../messages/types.js";
import type { ModelInfo } from "../models/resolve.js";
import type { ToolSchema } from "../providers/types.js";
import { estimateToolSchemaTokens } from "../tool/deferred.js";
import type { AnyTool } from "../tool/types.js";
import type { RequestPrefix } from "./request-prefix.js";

export type ContextCategoryId =
  | "system_prompt"
  | "system_tools"
  | "mcp_tools"
  | "system_tools_deferred"
  | "mcp_tools_deferred"
  | "messages"
  | "autocompact_buffer"
  | "free_space";

export interface ContextCategory {
  id: ContextCategoryId;
  name: string;
  tokens: number;
  kind: "used" | "free" | "buffer" | "deferred";
  isDeferred?: boolean;
}

export interface ContextUsage {
  categories: ContextCategory[];
  /** Tokens the next request would carry. */
  totalTokens: number;
  /** The model's window. */
  maxTokens: number;
  /** totalTokens as a share of the window, 0 to 100. */
  percentage: number;
  model: string;
  mcpTools: Array<{ name: string; serverName: string; tokens: number; isLoaded: boolean }>;
  systemTools: Array<{ name: string; tokens: number }>;
  deferredBuiltinTools: Array<{ name: string; tokens: number; isLoaded: boolean }>;
  isAutoCompactEnabled: boolean;
  autoCompactThreshold?: number;
  /** The usage the provider reported for the last response, when there was one. */
  apiUsage: Usage | null;
}

export interface ContextUsageInput {
  prefix: RequestPrefix;
  /** The session's tool pool: those not in the prefix are deferred. */
  pool: readonly AnyTool[];
  messages: readonly Message[];
  modelInfo: ModelInfo;
  thresholds: ContextThresholds;
}

const schemaTokens = (schema: ToolSchema) => estimateTextTokens(JSON.stringify(schema).length);

export function measureContextUsage(input: ContextUsageInput): ContextUsage {
  const { prefix, pool, messages, modelInfo, thresholds } = input;
  const sent = new Set(prefix.tools.map((tool) => tool.name));
  const byName = new Map(pool.map((tool) => [tool.name, tool]));
  const systemTools: ContextUsage["systemTools"] = [];
  const mcpTools: ContextUsage["mcpTools"] = [];
  for (const schema of prefix.tools) {
    const server = byName.get(schema.name)?.mcpInfo?.serverName;
    if (server === undefined) systemTools.push({ name: schema.name, tokens: schemaTokens(schema) });
    else mcpTools.push({ name: schema.name, serverName: server, tokens: schemaTokens(schema), isLoaded: true });
  }
  const deferredBuiltinTools: ContextUsage["deferredBuiltinTools"] = [];
  for (const tool of pool) {
    if (sent.has(tool.name)) continue;
    const tokens = estimateToolSchemaTokens(tool);
    if (tool.mcpInfo) mcpTools.push({ name: tool.name, serverName: tool.mcpInfo.serverName, tokens, isLoaded: false });
    else deferredBuiltinTools.push({ name: tool.name, tokens, isLoaded: false });
  }
  const sum = (rows: ReadonlyArray<{ tokens: number; isLoaded?: boolean }>, loaded: boolean) =>
    rows.filter((row) => (row.isLoaded ?? true) === loaded).reduce((total, row) => total + row.tokens, 0);

  const prefixTokens = estimatePrefixTokens(prefix);
  const systemPromptTokens = estimateTextTokens(prefix.system.length);
  const request = estimateRequest(messages, prefixTokens);
  // The rows add up to the total: the prefix as its rows count it, the conversation the rest.
  const prefixRows = systemPromptTokens + sum(systemTools, true) + sum(mcpTools, true);
  const totalTokens = Math.max(request.tokens, prefixRows);
  const window = modelInfo.contextWindow;
  const buffer = thresholds.autoCompact ? Math.max(0, window - thresholds.autoCompactAt) : 0;
  const categories: ContextCategory[] = [
    { id: "system_prompt", name: "System prompt", tokens: systemPromptTokens, kind: "used" },
    { id: "system_tools", name: "System tools", tokens: sum(systemTools, true), kind: "used" },
    { id: "mcp_tools", name: "MCP tools", tokens: sum(mcpTools, true), kind: "used" },
    { id: "messages", name: "Messages", tokens: totalTokens - prefixRows, kind: "used" },
    {
      id: "system_tools_deferred",
      name: "System tools (deferred)",
      tokens: sum(deferredBuiltinTools, false),
      kind: "deferred",
      isDeferred: true,
    },
    {
      id: "mcp_tools_deferred",
      name: "MCP tools (deferred)",
      tokens: sum(mcpTools, false),
      kind: "deferred",
      isDeferred: true,
    },
    { id: "autocompact_buffer", name: "Autocompact buffer", tokens: buffer, kind: "buffer" },
    { id: "free_space", name: "Free space", tokens: Math.max(0, window - totalTokens - buffer), kind: "free" },
  ];
  let lastUsage: Usage | undefined;
  for (let i = messages.length - 1; i >= 0 && !lastUsage; i--) {
    const message = messages[i] as Message;
    if (message.role === "assistant") lastUsage = message.usage;
  }
  return {
    categories,
    totalTokens,
    maxTokens: window,
    percentage: Math.min(100, Math.round((totalTokens / window) * 1000) / 10),
    model: modelInfo.model,
    mcpTools,
    systemTools,
    deferredBuiltinTools,
    isAutoCompactEnabled: thresholds.autoCompact,
    ...(thresholds.autoCompact && { autoCompactThreshold: thresholds.autoCompactAt }),
    apiUsage: lastUsage ?? null,
  };
}
