// The library's query() options as a SessionSpec (../session/spec.ts): the session the Agent SDK
// would start as a child process with its flags, described directly as the object the in-process
// stream session takes, checked by the same schema as the command line's. Hooks, in-process MCP
// servers, agents, the system prompt and the output schema go in the initialize request instead
// (./query.ts), as the SDK sends them.
import { resolve } from "node:path";
import { thinkingFromFlags } from "../cli/flags/thinking-option.js";
import { UsageError } from "../cli/flags/usage-error.js";
import { parseSessionSpec, type SessionSpec } from "../cli/session/spec.js";
import { splitRuleList } from "../permissions/rules/index.js";
import type { McpSdkServerConfigWithInstance, Options } from "./types.js";

export function specOfOptions(
  options: Options,
  sdkServers: ReadonlyMap<string, McpSdkServerConfigWithInstance>,
): SessionSpec {
  const baseCwd = options.cwd ?? process.cwd();
  // A list entry may hold several rules ("Read Write"), as the SDK's comma-joined flag did.
  const rules = (list: readonly string[] | undefined) => (list ?? []).flatMap((entry) => splitRuleList(entry));
  const thinking =
    options.maxThinkingTokens !== undefined
      ? thinkingFromFlags({ maxThinkingTokens: String(options.maxThinkingTokens) })
      : {};
  if (thinking.error) throw new UsageError(thinking.error);
  const external = Object.entries(options.mcpServers ?? {}).filter(([name]) => !sdkServers.has(name));
  return parseSessionSpec({
    // The stream session: user messages and control requests in, the SDK's messages out.
    print: true,
    inputFormat: "stream-json",
    outputFormat: "stream-json",
    verbose: true,
    cwd: resolve(baseCwd),
    model: options.model || undefined,
    permissionMode: options.permissionMode || undefined,
    allowDangerouslySkipPermissions: options.allowDangerouslySkipPermissions === true,
    allowedTools: rules(options.allowedTools),
    disallowedTools: rules(options.disallowedTools),
    addDirs: (options.additionalDirectories ?? []).map((dir) => resolve(baseCwd, dir)),
    maxTurns: options.maxTurns,
    maxBudgetUsd: options.maxBudgetUsd,
    continueLatest: options.continue === true,
    resume: options.resume || undefined,
    forkSession: options.forkSession === true,
    settingSources: options.settingSources,
    includePartialMessages: options.includePartialMessages === true,
    enableFileCheckpointing: options.enableFileCheckpointing === true,
    includeHookEvents: options.includeHookEvents === true,
    thinking: thinking.setting,
    permissionPromptTool: options.canUseTool ? "stdio" : undefined,
    // Settings given with the session apply at once: their `env` reaches the session's processes.
    settings: options.env && Object.keys(options.env).length > 0 ? JSON.stringify({ env: options.env }) : undefined,
    mcpConfig: external.length > 0 ? [JSON.stringify({ mcpServers: Object.fromEntries(external) })] : [],
  });
}
