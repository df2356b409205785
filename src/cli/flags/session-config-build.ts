// Turns the flags parseSessionArgs() read into a SessionSpec (session/spec.ts): each value checked
// (a clear UsageError naming the flag and what it must be), paths made absolute; the spec's schema
// then refuses the combinations that cannot work, as it does for every front end.
import { resolve } from "node:path";
import { splitRuleList } from "../../permissions/rules/index.js";
import { PERMISSION_MODES, type PermissionMode } from "../../tool/permission-types.js";
import { combinationProblem, isMcpPromptToolName } from "../session/spec-rules.js";
import { SETTING_SOURCES, type SessionConfig, type SettingSource, UsageError } from "./session-config-types.js";
import { thinkingFromFlags } from "./thinking-option.js";

export function buildSessionConfig(
  raw: Record<string, unknown>,
  positionals: string[],
  baseCwd: string,
): SessionConfig {
  const outputFormat = (raw.outputFormat as string | undefined) ?? "text";
  if (outputFormat !== "text" && outputFormat !== "json" && outputFormat !== "stream-json") {
    throw new UsageError(`--output-format must be text, json or stream-json, not ${JSON.stringify(outputFormat)}`);
  }
  let maxTurns: number | undefined;
  if (raw.maxTurnsRaw !== undefined) {
    maxTurns = Number(raw.maxTurnsRaw);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) {
      throw new UsageError(`--max-turns must be a whole number >= 1, not ${JSON.stringify(raw.maxTurnsRaw)}`);
    }
  }
  let maxBudgetUsd: number | undefined;
  if (raw.maxBudgetRaw !== undefined) {
    maxBudgetUsd = Number(raw.maxBudgetRaw);
    if (!Number.isFinite(maxBudgetUsd) || maxBudgetUsd <= 0 || String(raw.maxBudgetRaw).trim() === "") {
      throw new UsageError(`--max-budget-usd must be a number of dollars > 0, not ${JSON.stringify(raw.maxBudgetRaw)}`);
    }
  }
  const mode = raw.permissionMode as string | undefined;
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(
      `--permission-mode must be one of ${PERMISSION_MODES.join(", ")}, not ${JSON.stringify(mode)}`,
    );
  }
  const inputFormat = (raw.inputFormat as string | undefined) ?? "text";
  if (inputFormat !== "text" && inputFormat !== "stream-json") {
    throw new UsageError(`--input-format must be text or stream-json, not ${JSON.stringify(inputFormat)}`);
  }
  const promptTool = raw.permissionPromptTool as string | undefined;
  if (promptTool !== undefined && promptTool !== "stdio" && !isMcpPromptToolName(promptTool)) {
    throw new UsageError(
      `--permission-prompt-tool takes "stdio" (the Agent SDK's canUseTool) or an MCP tool's name (mcp__server__tool), not ${JSON.stringify(promptTool)}`,
    );
  }
  const thinking = thinkingFromFlags({
    maxThinkingTokens: raw.maxThinkingRaw as string | undefined,
    thinking: raw.thinkingRaw as string | undefined,
    display: raw.thinkingDisplayRaw as string | undefined,
  });
  if (thinking.error) throw new UsageError(thinking.error);
  let settingSources: SettingSource[] | undefined;
  if (raw.settingSourcesRaw !== undefined) {
    const names = String(raw.settingSourcesRaw)
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    const unknown = names.filter((n) => !(SETTING_SOURCES as readonly string[]).includes(n));
    if (unknown.length > 0) {
      throw new UsageError(
        `--setting-sources takes ${SETTING_SOURCES.join(", ")}, not ${unknown.map((n) => JSON.stringify(n)).join(", ")}`,
      );
    }
    settingSources = names as SettingSource[];
  }
  const sessionId = raw.sessionId as string | undefined;
  if (sessionId !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) {
    throw new UsageError(`--session-id must be a UUID, not ${JSON.stringify(sessionId)}`);
  }
  const teammateMode = raw.teammateMode as string | undefined;
  if (
    teammateMode !== undefined &&
    teammateMode !== "in-process" &&
    teammateMode !== "process" &&
    teammateMode !== "tmux"
  ) {
    throw new UsageError(`--teammate-mode must be in-process, process or tmux, not ${JSON.stringify(teammateMode)}`);
  }
  if (raw.agents !== undefined) {
    try {
      const parsed: unknown = JSON.parse(raw.agents as string);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    } catch (error) {
      throw new UsageError(`--agents must be a JSON object of agents: ${(error as Error).message}`);
    }
  }
  if (raw.pickResume === true && (raw.print === true || raw.continueLatest === true)) {
    throw new UsageError(
      raw.print === true
        ? "--resume needs a session id with -p (without -p, -r alone opens the session picker)"
        : "use either --resume or --continue, not both",
    );
  }
  const config: SessionConfig = {
    print: raw.print === true,
    outputFormat,
    verbose: raw.verbose === true,
    continueLatest: raw.continueLatest === true,
    pickResume: raw.pickResume === true,
    cwd: resolve(baseCwd, (raw.cwd as string | undefined) ?? "."),
    allowedTools: raw.allowedTools as string[],
    disallowedTools: raw.disallowedTools as string[],
    addDirs: (raw.addDirs as string[]).map((d) => resolve(baseCwd, d)),
    dangerouslySkipPermissions: raw.dangerouslySkipPermissions === true,
    allowDangerouslySkipPermissions: raw.allowDangerouslySkipPermissions === true,
    mcpConfig: raw.mcpConfig as string[],
    trustProject: raw.trustProject === true,
    brief: raw.brief === true,
    codeMode: raw.codeMode === true,
    inputFormat,
    includePartialMessages: raw.includePartialMessages === true,
    includeHookEvents: raw.includeHookEvents === true,
    enableFileCheckpointing: raw.enableFileCheckpointing === true,
    replayUserMessages: raw.replayUserMessages === true,
    strictMcpConfig: raw.strictMcpConfig === true,
    forkSession: raw.forkSession === true,
    noSessionPersistence: raw.noSessionPersistence === true,
    debug: raw.debug === true,
    help: raw.help === true,
    version: raw.version === true,
  };
  if (positionals.length > 0) config.prompt = positionals.join(" ");
  if (raw.model !== undefined) config.model = raw.model as string;
  if (maxTurns !== undefined) config.maxTurns = maxTurns;
  if (maxBudgetUsd !== undefined) config.maxBudgetUsd = maxBudgetUsd;
  if (raw.appendSystemPrompt !== undefined) config.appendSystemPrompt = raw.appendSystemPrompt as string;
  if (raw.resume !== undefined) config.resume = raw.resume as string;
  if (mode !== undefined) config.permissionMode = mode as PermissionMode;
  if (raw.settings !== undefined) config.settings = raw.settings as string;
  if (promptTool !== undefined) config.permissionPromptTool = promptTool;
  if (raw.systemPrompt !== undefined) config.systemPrompt = raw.systemPrompt as string;
  if (settingSources !== undefined) config.settingSources = settingSources;
  const pluginDirs = raw.pluginDirs as string[] | undefined;
  if (pluginDirs?.length) config.pluginDirs = pluginDirs.map((d) => resolve(baseCwd, d));
  if (raw.fallbackModel !== undefined) config.fallbackModel = raw.fallbackModel as string;
  if (sessionId !== undefined) config.sessionId = sessionId;
  const setup = setupOf(raw);
  if (setup !== undefined) config.setup = setup;
  if (raw.toolsRaw !== undefined) {
    const value = String(raw.toolsRaw).trim();
    if (value !== "default") config.tools = splitRuleList(value);
  }
  if (raw.agents !== undefined) config.agents = raw.agents as string;
  if (teammateMode !== undefined) config.teammateMode = teammateMode;
  if (thinking.setting) config.thinking = thinking.setting;
  if (raw.jsonSchema !== undefined) {
    const value = raw.jsonSchema as string;
    config.jsonSchema = value.trimStart().startsWith("{") ? value : resolve(baseCwd, value);
  }
  // The combinations that cannot work are the spec's own rules, the same for every front end
  // (applied without the schema's parse: each value above is checked already; see spec-rules.ts).
  const problem = combinationProblem(config);
  if (problem) throw new UsageError(problem);
  return config;
}

/** --init, --init-only and --maintenance: which Setup hooks run, and whether a session follows. */
function setupOf(raw: Record<string, unknown>): SessionConfig["setup"] {
  const given = (["setupInit", "setupInitOnly", "setupMaintenance"] as const).filter((key) => raw[key] === true);
  if (given.length > 1) throw new UsageError("use one of --init, --init-only and --maintenance");
  if (raw.setupInitOnly === true) return "init-only";
  if (raw.setupInit === true) return "init";
  if (raw.setupMaintenance === true) return "maintenance";
  return undefined;
}
