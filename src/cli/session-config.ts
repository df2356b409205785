// Command-line parsing for the session command. Hand-written over a small table rather than a
// parser library: it costs nothing at start-up, and list flags behave as in Claude Code
// (`--allowedTools Read "Bash(git:*)"` takes every following word that is not a flag).
import { resolve } from "node:path";
import { splitRuleList } from "../permissions/rules/index.js";
import type { ThinkingSetting } from "../providers/types.js";
import { PERMISSION_MODES, type PermissionMode } from "../tool/permission-types.js";
import { thinkingFromFlags } from "./thinking-option.js";

export type OutputFormat = "text" | "json" | "stream-json";
export type InputFormat = "text" | "stream-json";
export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/**
 * Everything the command line says about a session, in one object. Modules wired in later
 * (permissions, settings, MCP) read their flags from here.
 */
export interface SessionConfig {
  /** -p / --print: run one prompt headless and exit. */
  print: boolean;
  /** The prompt from the command line (stdin is read later, by the command). */
  prompt?: string;
  outputFormat: OutputFormat;
  /** `provider:model`; undefined = pick from the environment. */
  model?: string;
  maxTurns?: number;
  /** --max-budget-usd: end the session once it has spent this much. */
  maxBudgetUsd?: number;
  verbose: boolean;
  appendSystemPrompt?: string;
  resume?: string;
  continueLatest: boolean;
  /** Absolute working directory. */
  cwd: string;
  allowedTools: string[];
  disallowedTools: string[];
  permissionMode?: PermissionMode;
  addDirs: string[];
  dangerouslySkipPermissions: boolean;
  mcpConfig: string[];
  /** A settings file path or inline JSON. */
  settings?: string;
  /** --trust-project: the folder's own settings may widen permissions for this run (CI). */
  trustProject: boolean;
  /**
   * --json-schema: the run must end with a StructuredOutput call matching this JSON schema, given
   * inline (text starting with `{`) or as a file (made absolute here).
   */
  jsonSchema?: string;
  /** --brief: offer SendUserMessage (also settings `brief: true`). */
  brief: boolean;
  /** --input-format stream-json: user messages and control requests as NDJSON on stdin (the Agent SDK). */
  inputFormat: InputFormat;
  /** --include-partial-messages: `stream_event` lines as the model's answer streams in. */
  includePartialMessages: boolean;
  /** --replay-user-messages: each user message read from stdin is written back on stdout. */
  replayUserMessages: boolean;
  /** --permission-prompt-tool stdio: asks go to the SDK as `can_use_tool` control requests. */
  permissionPromptTool?: string;
  /** --system-prompt: replaces the built-in system prompt. */
  systemPrompt?: string;
  /** --setting-sources user,project,local: which settings files are read (managed policy always is). */
  settingSources?: SettingSource[];
  /** --strict-mcp-config: only the servers of --mcp-config, none from settings files. */
  strictMcpConfig: boolean;
  /** --fallback-model: used when the main model's request fails. */
  fallbackModel?: string;
  /** --session-id: the new session's id (a UUID). */
  sessionId?: string;
  /** --fork-session: a resumed conversation continues under a new session id. */
  forkSession: boolean;
  /** --tools: the built-in tools offered ("default" or absent: all; empty: none). */
  tools?: string[];
  /** --agents: custom agents as JSON (`{"name": {"description", "prompt", "tools"?, "model"?}}`). */
  agents?: string;
  /** --max-thinking-tokens, --thinking, --thinking-display: how the model may think. */
  thinking?: ThinkingSetting;
  /** --include-hook-events: hook_started / hook_progress / hook_response lines in stream-json. */
  includeHookEvents: boolean;
  /** --enable-file-checkpointing: the Agent SDK's rewind_files may undo the changes since a user message. */
  enableFileCheckpointing: boolean;
  /** --no-session-persistence: no transcript is written (the session cannot be resumed). */
  noSessionPersistence: boolean;
  /** --teammate-mode: teammates run in this process or each in a `warden` process of its own (settings teammateMode). */
  teammateMode?: "in-process" | "process";
  /** --debug [categories]: protocol and set-up details on stderr. */
  debug: boolean;
  help: boolean;
  version: boolean;
}

/** `optional`: a boolean that may take a value with `=` (`--debug` or `--debug=api,hooks`). */
type OptionKind = "boolean" | "string" | "list" | "optional";

interface OptionSpec {
  names: string[];
  kind: OptionKind;
  key:
    | keyof SessionConfig
    | "maxTurnsRaw"
    | "maxBudgetRaw"
    | "maxThinkingRaw"
    | "thinkingRaw"
    | "thinkingDisplayRaw"
    | "settingSourcesRaw"
    | "toolsRaw"
    | "ignored";
  help: string;
  arg?: string;
  /** A list whose values may hold several items (`Read,Glob` or `"Read Glob"`). */
  splitsValues?: boolean;
}

const OPTIONS: OptionSpec[] = [
  { names: ["-p", "--print"], kind: "boolean", key: "print", help: "Answer one prompt and exit (headless)" },
  {
    names: ["--output-format"],
    kind: "string",
    key: "outputFormat",
    arg: "<format>",
    help: "text (default), json or stream-json",
  },
  {
    names: ["--model"],
    kind: "string",
    key: "model",
    arg: "<provider:model>",
    help: "e.g. anthropic:claude-sonnet-4-6, openai:gpt-4.1, replay:FILE",
  },
  { names: ["--max-turns"], kind: "string", key: "maxTurnsRaw", arg: "<n>", help: "Stop after n model requests" },
  {
    names: ["--max-budget-usd"],
    kind: "string",
    key: "maxBudgetRaw",
    arg: "<usd>",
    help: "Stop once the session has spent this many US dollars",
  },
  { names: ["--verbose"], kind: "boolean", key: "verbose", help: "Report tool calls on stderr" },
  {
    names: ["--append-system-prompt"],
    kind: "string",
    key: "appendSystemPrompt",
    arg: "<text>",
    help: "Add text to the end of the system prompt",
  },
  {
    names: ["-r", "--resume"],
    kind: "string",
    key: "resume",
    arg: "<session-id>",
    help: "Continue the given session of this directory",
  },
  {
    names: ["-c", "--continue"],
    kind: "boolean",
    key: "continueLatest",
    help: "Continue the latest session of this directory",
  },
  { names: ["--cwd"], kind: "string", key: "cwd", arg: "<dir>", help: "Working directory (default: the current one)" },
  {
    names: ["--allowedTools", "--allowed-tools"],
    kind: "list",
    key: "allowedTools",
    arg: "<rules...>",
    splitsValues: true,
    help: 'Permission rules to allow, e.g. Read "Bash(git diff:*)"',
  },
  {
    names: ["--disallowedTools", "--disallowed-tools"],
    kind: "list",
    key: "disallowedTools",
    arg: "<rules...>",
    splitsValues: true,
    help: "Permission rules to deny",
  },
  {
    names: ["--permission-mode"],
    kind: "string",
    key: "permissionMode",
    arg: "<mode>",
    help: PERMISSION_MODES.join(", "),
  },
  {
    names: ["--add-dir"],
    kind: "list",
    key: "addDirs",
    arg: "<dirs...>",
    help: "More directories the tools may work in",
  },
  {
    names: ["--dangerously-skip-permissions"],
    kind: "boolean",
    key: "dangerouslySkipPermissions",
    help: "Run every tool without asking (bypass mode)",
  },
  {
    names: ["--mcp-config"],
    kind: "list",
    key: "mcpConfig",
    arg: "<files-or-json...>",
    help: "MCP server configuration",
  },
  {
    names: ["--settings"],
    kind: "string",
    key: "settings",
    arg: "<file-or-json>",
    help: "An extra settings file or inline JSON",
  },
  {
    names: ["--json-schema"],
    kind: "string",
    key: "jsonSchema",
    arg: "<file-or-json>",
    help: "End with data matching this JSON schema (the result's structured_output)",
  },
  {
    names: ["--brief"],
    kind: "boolean",
    key: "brief",
    help: "Let the model send you messages while it works (SendUserMessage)",
  },
  {
    names: ["--trust-project"],
    kind: "boolean",
    key: "trustProject",
    help: "Apply this folder's own settings whole for this run, as if trusted (CI)",
  },
  {
    names: ["--input-format"],
    kind: "string",
    key: "inputFormat",
    arg: "<format>",
    help: "text (default) or stream-json (NDJSON messages and control requests on stdin)",
  },
  {
    names: ["--include-partial-messages"],
    kind: "boolean",
    key: "includePartialMessages",
    help: "stream-json: stream_event lines as the answer streams in",
  },
  {
    names: ["--replay-user-messages"],
    kind: "boolean",
    key: "replayUserMessages",
    help: "stream-json input: write each user message back on stdout",
  },
  {
    names: ["--permission-prompt-tool"],
    kind: "string",
    key: "permissionPromptTool",
    arg: "stdio",
    help: "stdio: asks go to the Agent SDK (can_use_tool) instead of being denied",
  },
  {
    names: ["--system-prompt"],
    kind: "string",
    key: "systemPrompt",
    arg: "<text>",
    help: "Replace the system prompt",
  },
  {
    names: ["--setting-sources"],
    kind: "string",
    key: "settingSourcesRaw",
    arg: "<sources>",
    help: "Settings files to read: a comma list of user, project, local (managed policy always applies)",
  },
  {
    names: ["--strict-mcp-config"],
    kind: "boolean",
    key: "strictMcpConfig",
    help: "Only the MCP servers of --mcp-config",
  },
  {
    names: ["--fallback-model"],
    kind: "string",
    key: "fallbackModel",
    arg: "<model>",
    help: "Model to use when the main one's request fails",
  },
  { names: ["--session-id"], kind: "string", key: "sessionId", arg: "<uuid>", help: "The new session's id" },
  {
    names: ["--fork-session"],
    kind: "boolean",
    key: "forkSession",
    help: "With --resume or --continue: continue under a new session id",
  },
  {
    names: ["--tools"],
    kind: "string",
    key: "toolsRaw",
    arg: "<names>",
    help: 'Built-in tools to offer: a comma list, "default" for all, "" for none',
  },
  { names: ["--agents"], kind: "string", key: "agents", arg: "<json>", help: "Custom agents as JSON" },
  {
    names: ["--max-thinking-tokens"],
    kind: "string",
    key: "maxThinkingRaw",
    arg: "<n>",
    help: "Thinking budget for models that think (0: no thinking)",
  },
  {
    names: ["--thinking"],
    kind: "string",
    key: "thinkingRaw",
    arg: "<type>",
    help: "adaptive, enabled or disabled: whether the model thinks (Anthropic)",
  },
  {
    names: ["--thinking-display"],
    kind: "string",
    key: "thinkingDisplayRaw",
    arg: "<display>",
    help: "summarized or omitted: how much of the thinking comes back",
  },
  {
    names: ["--include-hook-events"],
    kind: "boolean",
    key: "includeHookEvents",
    help: "stream-json: hook_started, hook_progress and hook_response lines",
  },
  {
    names: ["--enable-file-checkpointing"],
    kind: "boolean",
    key: "enableFileCheckpointing",
    help: "stream-json: the SDK's rewindFiles() may undo the file changes since a user message",
  },
  {
    names: ["--no-session-persistence"],
    kind: "boolean",
    key: "noSessionPersistence",
    help: "Write no transcript (the session cannot be resumed)",
  },
  {
    names: ["--teammate-mode"],
    kind: "string",
    key: "teammateMode",
    arg: "<mode>",
    help: "in-process (default) or process: where a team's teammates run",
  },
  { names: ["--debug"], kind: "optional", key: "debug", help: "Protocol and set-up details on stderr" },
  {
    // Passed by the Agent SDK with allowDangerouslySkipPermissions: bypass mode still has to be asked for.
    names: ["--allow-dangerously-skip-permissions"],
    kind: "boolean",
    key: "ignored",
    help: "Allow switching to bypassPermissions later (accepted; the mode is still chosen explicitly)",
  },
  { names: ["-h", "--help"], kind: "boolean", key: "help", help: "Show this help" },
  { names: ["-v", "--version"], kind: "boolean", key: "version", help: "Show the version" },
];

const BY_NAME = new Map<string, OptionSpec>();
for (const spec of OPTIONS) for (const name of spec.names) BY_NAME.set(name, spec);

export class UsageError extends Error {}

export function usageText(): string {
  const lines = OPTIONS.map((o) => `  ${`${o.names.join(", ")}${o.arg ? ` ${o.arg}` : ""}`.padEnd(44)} ${o.help}`);
  return [
    'Usage: warden -p "<prompt>" [options]      (the prompt may also come on stdin)',
    "       warden permissions | undo | mcp | trust ...",
    "",
    "Options:",
    ...lines,
    "",
  ].join("\n");
}

export function parseSessionArgs(argv: readonly string[], baseCwd = process.cwd()): SessionConfig {
  const raw: Record<string, unknown> = { allowedTools: [], disallowedTools: [], addDirs: [], mcpConfig: [] };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = BY_NAME.get(name);
    if (!spec) throw new UsageError(`unknown option ${name}`);
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (spec.kind === "boolean") {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      raw[spec.key] = true;
    } else if (spec.kind === "optional") {
      raw[spec.key] = true;
    } else if (spec.kind === "string") {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value ${spec.arg ?? ""}`.trim());
      raw[spec.key] = value;
    } else {
      const list = raw[spec.key] as string[];
      const before = list.length;
      // Only rule lists split on commas and spaces; an --mcp-config value (a file or inline JSON)
      // and an --add-dir path are kept whole.
      const items = spec.splitsValues ? splitRuleList : (value: string) => [value];
      if (inline !== undefined) list.push(...items(inline));
      else
        while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("-"))
          list.push(...items(argv[++i] as string));
      if (list.length === before) throw new UsageError(`${name} needs at least one value ${spec.arg ?? ""}`.trim());
    }
  }
  return toConfig(raw, positionals, baseCwd);
}

function toConfig(raw: Record<string, unknown>, positionals: string[], baseCwd: string): SessionConfig {
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
  if (raw.resume !== undefined && raw.continueLatest)
    throw new UsageError("use either --resume or --continue, not both");
  const inputFormat = (raw.inputFormat as string | undefined) ?? "text";
  if (inputFormat !== "text" && inputFormat !== "stream-json") {
    throw new UsageError(`--input-format must be text or stream-json, not ${JSON.stringify(inputFormat)}`);
  }
  if (inputFormat === "stream-json" && outputFormat !== "stream-json") {
    throw new UsageError("--input-format stream-json needs --output-format stream-json");
  }
  const promptTool = raw.permissionPromptTool as string | undefined;
  if (promptTool !== undefined && promptTool !== "stdio") {
    throw new UsageError(
      `--permission-prompt-tool: only "stdio" (the Agent SDK's canUseTool) is supported, not ${JSON.stringify(promptTool)}`,
    );
  }
  if (promptTool === "stdio" && inputFormat !== "stream-json") {
    throw new UsageError("--permission-prompt-tool stdio needs --input-format stream-json");
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
  if (sessionId !== undefined && (raw.resume !== undefined || raw.continueLatest) && raw.forkSession !== true) {
    throw new UsageError("--session-id with --resume or --continue needs --fork-session");
  }
  if (raw.forkSession === true && raw.resume === undefined && !raw.continueLatest) {
    throw new UsageError("--fork-session needs --resume or --continue");
  }
  const teammateMode = raw.teammateMode as string | undefined;
  if (teammateMode !== undefined && teammateMode !== "in-process" && teammateMode !== "process") {
    throw new UsageError(`--teammate-mode must be in-process or process, not ${JSON.stringify(teammateMode)}`);
  }
  if (raw.agents !== undefined) {
    try {
      const parsed: unknown = JSON.parse(raw.agents as string);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    } catch (error) {
      throw new UsageError(`--agents must be a JSON object of agents: ${(error as Error).message}`);
    }
  }
  const config: SessionConfig = {
    print: raw.print === true,
    outputFormat,
    verbose: raw.verbose === true,
    continueLatest: raw.continueLatest === true,
    cwd: resolve(baseCwd, (raw.cwd as string | undefined) ?? "."),
    allowedTools: raw.allowedTools as string[],
    disallowedTools: raw.disallowedTools as string[],
    addDirs: (raw.addDirs as string[]).map((d) => resolve(baseCwd, d)),
    dangerouslySkipPermissions: raw.dangerouslySkipPermissions === true,
    mcpConfig: raw.mcpConfig as string[],
    trustProject: raw.trustProject === true,
    brief: raw.brief === true,
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
  if (raw.fallbackModel !== undefined) config.fallbackModel = raw.fallbackModel as string;
  if (sessionId !== undefined) config.sessionId = sessionId;
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
  return config;
}
