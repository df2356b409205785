// The session command's flags: each one's names, kind, where its value goes and its help line.
// Hand-written over a small table rather than a parser library: it costs nothing at start-up.
import { PERMISSION_MODES } from "../../tool/permission-types.js";
import type { SessionConfig } from "./session-config-types.js";

/** `optional`: a boolean that may take a value with `=` (`--debug` or `--debug=api,hooks`). */
export type OptionKind = "boolean" | "string" | "list" | "optional";

export interface OptionSpec {
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
    | "setupInit"
    | "setupInitOnly"
    | "setupMaintenance"
    | "ignored";
  help: string;
  arg?: string;
  /** A list whose values may hold several items (`Read,Glob` or `"Read Glob"`). */
  splitsValues?: boolean;
}

export const OPTIONS: OptionSpec[] = [
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
  {
    names: ["--verbose"],
    kind: "boolean",
    key: "verbose",
    help: "Report tool calls on stderr (json: print every message, in one array)",
  },
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
    arg: "[session-id]",
    help: "Continue the given session of this directory (without an id: pick one, interactive only)",
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
    names: ["--plugin-dir"],
    kind: "list",
    key: "pluginDirs",
    arg: "<dirs...>",
    help: "Load a plugin from this folder for this session only",
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
    names: ["--code-mode"],
    kind: "boolean",
    key: "codeMode",
    help: "Offer REPL: the model calls tools from a JavaScript program and keeps only what it prints",
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
    arg: "<stdio|mcp__server__tool>",
    help: "Who settles asks instead of denying them: stdio (the Agent SDK's can_use_tool) or an MCP tool",
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
    names: ["--init"],
    kind: "boolean",
    key: "setupInit",
    help: "Run the Setup hooks (trigger init), then the session",
  },
  {
    names: ["--init-only"],
    kind: "boolean",
    key: "setupInitOnly",
    help: "Run the Setup hooks (trigger init) and exit, without a session",
  },
  {
    names: ["--maintenance"],
    kind: "boolean",
    key: "setupMaintenance",
    help: "Run the Setup hooks (trigger maintenance), then the session",
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
    help: "in-process (default), process, or tmux (processes, each shown in a tmux pane): where a team's teammates run",
  },
  { names: ["--debug"], kind: "optional", key: "debug", help: "Protocol and set-up details on stderr" },
  {
    // Passed by the Agent SDK with allowDangerouslySkipPermissions: bypass mode becomes available
    // (setPermissionMode may switch to it later) without being entered.
    names: ["--allow-dangerously-skip-permissions"],
    kind: "boolean",
    key: "allowDangerouslySkipPermissions",
    help: "Allow switching to bypassPermissions later, without starting in it",
  },
  { names: ["-h", "--help"], kind: "boolean", key: "help", help: "Show this help" },
  { names: ["-v", "--version"], kind: "boolean", key: "version", help: "Show the version" },
];

/** Each flag by every name it has. */
export const BY_NAME = new Map<string, OptionSpec>();
for (const spec of OPTIONS) for (const name of spec.names) BY_NAME.set(name, spec);

export function usageText(): string {
  const lines = OPTIONS.map((o) => `  ${`${o.names.join(", ")}${o.arg ? ` ${o.arg}` : ""}`.padEnd(44)} ${o.help}`);
  return [
    'Usage: warden -p "<prompt>" [options]      (the prompt may also come on stdin)',
    // Every subcommand a person runs (cli/subcommands.ts; a test keeps the two lists the same).
    "       warden permissions | undo | mcp | trust | plugin | acp | fleet | view ...   (each with --help)",
    "       warden                                    (no -p, in a terminal: the interactive UI)",
    "",
    "Options:",
    ...lines,
    "",
  ].join("\n");
}
