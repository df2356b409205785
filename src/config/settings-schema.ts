// The shape of a settings file (Claude Code's layout, so existing files work unchanged). Each field
// is validated on its own so that one bad field costs only that field, and only where dropping it
// is safe: see `critical` below.
import * as z from "zod";
import { PERMISSION_MODES } from "../tool/permission-types.js";
import { TASK_LIST_FAMILIES, type TaskListFamily } from "../tool/task-list.js";
import { HOOK_EVENTS, type HookEventName } from "./hook-events.js";

// The events themselves are listed once, in hook-events.ts.
export { HOOK_EVENTS, type HookEventName } from "./hook-events.js";

/** Fields every hook type shares (Claude Code's hooks reference). */
const hookCommon = () => ({
  /** Seconds. */
  timeout: z.number().positive().max(3600).optional(),
  /** What the UI shows while the hook runs. */
  statusMessage: z.string().optional(),
  /** Run once per session, then no more (skills' hooks). */
  once: z.boolean().optional(),
  /**
   * A permission-rule condition (`Bash(git commit:*)`, `Edit(src/**)`): the hook runs only for
   * tool calls it matches, and only on tool events (src/hooks/hook-condition.ts).
   */
  if: z.string().min(1).optional(),
});

/** A shell command: the event's JSON on stdin, its answer on stdout and in its exit code. */
export const hookCommandSchema = z.lazy(() =>
  z.object({
    type: z.literal("command"),
    command: z.string().min(1),
    /** Runs in the background: the event does not wait, and the hook cannot block it. */
    async: z.boolean().optional(),
    /**
     * Runs in the background like `async`; when it exits with code 2 its stderr wakes the model
     * (a turn starts if the session is idle), after `rewakeMessage`. `rewakeSummary` is the
     * one-line notice shown to the person (a `rewakeSummary` in the hook's JSON output wins).
     */
    asyncRewake: z.boolean().optional(),
    rewakeMessage: z.string().optional(),
    rewakeSummary: z.string().optional(),
    ...hookCommon(),
  }),
);
export type HookCommandConfig = z.infer<typeof hookCommandSchema>;

/** A POST of the event's JSON to a URL; the response body is read as a command's stdout. */
export const hookHttpSchema = z.lazy(() =>
  z.object({
    type: z.literal("http"),
    url: z.string().regex(/^https?:\/\//, "must start with http:// or https://"),
    /** Header values may name environment variables (`$TOKEN`, `${TOKEN}`) listed in allowedEnvVars. */
    headers: z.record(z.string(), z.string()).optional(),
    allowedEnvVars: z.array(z.string()).optional(),
    ...hookCommon(),
  }),
);
export type HookHttpConfig = z.infer<typeof hookHttpSchema>;

/** A question to a model (`prompt`) or a verifying subagent (`agent`) that answers ok or not, with a reason. */
export const hookModelSchema = z.lazy(() =>
  z.object({
    type: z.enum(["prompt", "agent"]),
    /** `$ARGUMENTS` is replaced by the event's JSON (appended when absent). */
    prompt: z.string().min(1),
    /** A model of the session's provider; default: its small fast model (prompt) or the session's (agent). */
    model: z.string().min(1).optional(),
    ...hookCommon(),
  }),
);
export type HookModelConfig = z.infer<typeof hookModelSchema>;

export const hookSchema = z.lazy(() =>
  z.discriminatedUnion("type", [hookCommandSchema, hookHttpSchema, hookModelSchema]),
);
export type HookConfig = z.infer<typeof hookSchema>;

export const hookMatcherSchema = z.lazy(() =>
  z.object({
    /** Tool names (`Edit|Write`), a regular expression, or empty / `*` for all; tool events, and `manual` / `auto` for PreCompact and PostCompact. */
    matcher: z.string().optional(),
    hooks: z.array(hookSchema),
  }),
);
export type HookMatcherConfig = z.infer<typeof hookMatcherSchema>;

/**
 * Events we do not run (a newer Claude Code's, or a typo) are kept but not validated; settings.ts
 * warns once per file about each (unknownHookEvents), so a hook never goes quiet unnoticed.
 */
export const hooksSchema = z.lazy(() =>
  z.looseObject(
    Object.fromEntries(HOOK_EVENTS.map((event) => [event, z.array(hookMatcherSchema).optional()])) as Record<
      HookEventName,
      z.ZodOptional<z.ZodArray<typeof hookMatcherSchema>>
    >,
  ),
);
export type HooksConfig = Partial<Record<HookEventName, HookMatcherConfig[]>>;

/** The keys under `hooks` that name no event Warden runs. */
export function unknownHookEvents(hooks: unknown): string[] {
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return [];
  return Object.keys(hooks).filter((key) => !(HOOK_EVENTS as readonly string[]).includes(key));
}

/**
 * `fleet.worker`: what a fleet worker lets the jobs it runs do, whatever reached the queue. Absent
 * fields take the narrowest default: every mode but bypassPermissions, remote repositories only,
 * no model that reads the worker's files, allow rules kept to the job's workspace.
 */
export const fleetWorkerSettingsSchema = z.lazy(() =>
  z.strictObject({
    /** The permission modes a job may ask for. */
    permissionModes: z.array(z.enum(PERMISSION_MODES as [string, ...string[]])).optional(),
    /** Folders of this machine (absolute) whose repositories jobs may clone; each covers what is under it. */
    repositories: z.array(z.string().min(1)).optional(),
    /** Folders (absolute) whose files a model spec that reads a file (`replay:FILE`) may name. */
    modelFiles: z.array(z.string().min(1)).optional(),
    /** "workspace" (default): a job's allow rules reach nothing outside its clone; "any": as written. */
    jobRules: z.enum(["workspace", "any"]).optional(),
  }),
);
export type FleetWorkerSettings = z.infer<typeof fleetWorkerSettingsSchema>;

/**
 * `models`: what to assume of a model beyond the built-in table, keyed by `provider:model`, the
 * bare model id, or `provider:*` for every model of a provider (a local server's configured
 * window). Prices are USD per million tokens; cache prices default to the input price (read) and
 * 1.25 times it (write), which never under-reports.
 */
export const modelSettingsSchema = z.lazy(() => {
  const tokenCount = z.number().int().positive();
  const usdPerMillion = z.number().nonnegative();
  return z.strictObject({
    contextWindow: tokenCount.optional(),
    maxOutputTokens: tokenCount.optional(),
    maxInputTokens: tokenCount.optional(),
    price: z
      .strictObject({
        input: usdPerMillion,
        output: usdPerMillion,
        cacheWrite: usdPerMillion.optional(),
        cacheRead: usdPerMillion.optional(),
      })
      .optional(),
  });
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/**
 * `trustedFolders` (user settings only): folders whose own settings may widen what a session may
 * do, each with the fingerprint of those settings when the user trusted it (src/config/trust/).
 */
export const trustedFolderSchema = z.lazy(() =>
  z.object({
    path: z.string().min(1),
    settingsHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    trustedAt: z.string().optional(),
  }),
);

/** The search services WebSearch can use besides the provider's own search (src/tools/web-search/backends/). */
export const WEB_SEARCH_BACKENDS = ["brave", "tavily", "searxng"] as const;

/** `webSearch`: the search service WebSearch uses (it wins over the provider's server-side search). */
export const webSearchSettingsSchema = z.lazy(() =>
  z.strictObject({
    provider: z.enum(WEB_SEARCH_BACKENDS),
    /** The service's URL: required for SearXNG; the official endpoint by default for the others. */
    url: z.url({ protocol: /^https?$/ }).optional(),
    /** The environment variable holding the API key (default BRAVE_API_KEY, TAVILY_API_KEY). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional(),
    maxResults: z.number().int().min(1).max(20).optional(),
  }),
);
export type WebSearchSettings = z.infer<typeof webSearchSettingsSchema>;

/**
 * `sandbox` as a settings file holds it: the types of the keys src/shell/sandbox/config.ts reads
 * (the others, Claude Code's own, pass as they are).
 */
export const sandboxSettingsFileSchema = z.lazy(() => {
  const flag = z.boolean().optional();
  const list = z.array(z.string()).optional();
  return z.looseObject({
    enabled: flag,
    allowNetwork: flag,
    autoAllowBashIfSandboxed: flag,
    allowUnixSockets: flag,
    allowUnsandboxedCommands: flag,
    excludedCommands: list,
    additionalWritableDirectories: list,
    network: z.looseObject({ allowedDomains: list, deniedDomains: list, allowAllUnixSockets: flag }).optional(),
    filesystem: z.looseObject({ allowWrite: list }).optional(),
  });
});

/** `statusLine`: a command whose first line of output the interactive UI shows under the prompt. */
export const statusLineSettingsSchema = z.lazy(() =>
  z.looseObject({
    type: z.literal("command"),
    command: z.string().min(1),
    padding: z.number().int().min(0).optional(),
  }),
);
export type StatusLineSettings = z.infer<typeof statusLineSettingsSchema>;

/** `webFetch`: the hosts WebFetch reads without asking (replaces the built-in list; [] asks for all). */
export const webFetchSettingsSchema = z.lazy(() =>
  z.strictObject({
    preapprovedHosts: z.array(z.string().min(1)).optional(),
  }),
);
export type WebFetchSettings = z.infer<typeof webFetchSettingsSchema>;

/**
 * A field of the settings file. `critical` fields can only make a session stricter (deny and ask
 * rules, hooks that can block, the bypass switch-off): when one is broken the session must not
 * start, since going on without it would silently allow what the user meant to stop. The others
 * can only widen what is allowed, so dropping a broken one (with a warning) is safe.
 */
export interface SettingsField {
  path: readonly [string] | readonly [string, string];
  schema: z.ZodType;
  critical: boolean;
}

/** MCP's log levels (RFC 5424's syslog severities), least severe first. */
export const MCP_LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

let builtSettingsFields: readonly SettingsField[] | undefined;

/**
 * Every field a settings file may hold, with its schema. Built on first use, not at import: ~250
 * zod objects that a session with no settings file never needs, and building them at start-up was
 * a measurable share of the headless session's first request (issue 39).
 */
export function settingsFields(): readonly SettingsField[] {
  builtSettingsFields ??= buildSettingsFields();
  return builtSettingsFields;
}

function buildSettingsFields(): readonly SettingsField[] {
  const ruleList = z.array(z.string());
  return [
    { path: ["permissions", "deny"], schema: ruleList, critical: true },
    { path: ["permissions", "ask"], schema: ruleList, critical: true },
    { path: ["permissions", "allow"], schema: ruleList, critical: false },
    {
      path: ["permissions", "defaultMode"],
      schema: z.enum(PERMISSION_MODES as [string, ...string[]]),
      critical: false,
    },
    { path: ["permissions", "additionalDirectories"], schema: z.array(z.string()), critical: false },
    { path: ["permissions", "disableBypassPermissionsMode"], schema: z.literal("disable"), critical: true },
    { path: ["allowManagedPermissionRulesOnly"], schema: z.boolean(), critical: true },
    { path: ["hooks"], schema: hooksSchema, critical: true },
    { path: ["mcpServers"], schema: z.record(z.string(), z.looseObject({})), critical: false },
    { path: ["env"], schema: z.record(z.string(), z.string()), critical: false },
    { path: ["models"], schema: z.record(z.string(), modelSettingsSchema), critical: false },
    // Dropping a broken list only makes folders untrusted again: stricter, so not critical.
    { path: ["trustedFolders"], schema: z.array(trustedFolderSchema), critical: false },
    {
      path: ["taskTools"],
      schema: z.enum(TASK_LIST_FAMILIES as [TaskListFamily, ...TaskListFamily[]]),
      critical: false,
    },
    { path: ["agentTeams"], schema: z.boolean(), critical: false },
    // Code mode (docs/code-mode.md). Not critical: dropping it only stops offering REPL.
    {
      path: ["codeMode"],
      schema: z.strictObject({ enabled: z.boolean().optional(), mcpOnly: z.boolean().optional() }),
      critical: false,
    },
    // The PowerShell tool (docs/powershell.md): offered when true.
    { path: ["powerShell"], schema: z.boolean(), critical: false },
    { path: ["teammateMode"], schema: z.enum(["in-process", "process", "tmux"]), critical: false },
    { path: ["mcpSamplingServers"], schema: z.array(z.string()), critical: false },
    // A broken list is ignored with a warning (its servers start); /mcp and mcp_toggle refuse to rewrite it.
    { path: ["disabledMcpServers"], schema: z.array(z.string()), critical: false },
    // The approvals of .mcp.json servers (./project-server-approvals.ts): read silently as nothing
    // when of the wrong type, so a "disabledMcpjsonServers": "name" left its server running unsaid.
    { path: ["enabledMcpjsonServers"], schema: z.array(z.string()), critical: false },
    { path: ["disabledMcpjsonServers"], schema: z.array(z.string()), critical: false },
    { path: ["enableAllProjectMcpServers"], schema: z.boolean(), critical: false },
    { path: ["mcpLogLevel"], schema: z.enum(MCP_LOG_LEVELS), critical: false },
    // Each server's own shape is checked by src/lsp/servers.ts, which warns about a bad one.
    { path: ["lspServers"], schema: z.record(z.string(), z.looseObject({})), critical: false },
    // Critical: a broken list must not fall back to the (wider) built-in one a user meant to narrow.
    { path: ["webFetch"], schema: webFetchSettingsSchema, critical: true },
    // Critical: `"enabled": "true"` or a denied host given as a string, dropped, would leave Bash
    // unsandboxed or the host reachable while the user believes otherwise.
    { path: ["sandbox"], schema: sandboxSettingsFileSchema, critical: true },
    { path: ["model"], schema: z.string(), critical: false },
    { path: ["webSearch"], schema: webSearchSettingsSchema, critical: false },
    { path: ["smallFastModel"], schema: z.string().min(1), critical: false },
    // Claude Code's: a shell command whose output is the Anthropic API key (src/cli/session/provider-env.ts).
    { path: ["apiKeyHelper"], schema: z.string().min(1), critical: false },
    { path: ["statusLine"], schema: statusLineSettingsSchema, critical: false },
    { path: ["outputStyle"], schema: z.string().min(1), critical: false },
    // Dropping a broken plugin list leaves plugins off (narrower), so not critical (src/config/plugins/).
    { path: ["enabledPlugins"], schema: z.record(z.string(), z.boolean()), critical: false },
    {
      path: ["extraKnownMarketplaces"],
      schema: z.record(z.string(), z.looseObject({ source: z.looseObject({}) })),
      critical: false,
    },
    // Where the fleet's Redis is (remote agents, RemoteTrigger, durable Cron as repeatable jobs).
    {
      path: ["fleet", "redisUrl"],
      schema: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://"),
      critical: false,
    },
    // What a fleet worker lets a job do (src/fleet/worker-policy.ts). A broken one is dropped, and
    // the default it falls back to is the narrowest, so not critical.
    { path: ["fleet", "worker"], schema: fleetWorkerSettingsSchema, critical: false },
  ];
}

export interface PermissionsSettings {
  allow?: string[];
  deny?: string[];
  ask?: string[];
  defaultMode?: (typeof PERMISSION_MODES)[number];
  additionalDirectories?: string[];
  disableBypassPermissionsMode?: "disable";
}

/** A validated settings file. Unknown keys are kept for the modules that own them. */
export interface Settings {
  permissions?: PermissionsSettings;
  allowManagedPermissionRulesOnly?: boolean;
  hooks?: HooksConfig;
  mcpServers?: Record<string, Record<string, unknown>>;
  env?: Record<string, string>;
  models?: Record<string, ModelSettings>;
  trustedFolders?: Array<z.infer<typeof trustedFolderSchema>>;
  /** Which family of task-list tools sessions offer: TodoWrite, or Tasks (TaskCreate and the rest). */
  taskTools?: TaskListFamily;
  /** Offer teams (TeamCreate, TeamDelete, SendMessage; WARDEN_AGENT_TEAMS=1 does the same). */
  agentTeams?: boolean;
  /**
   * Code mode: `enabled` offers REPL (as `--code-mode` does); `mcpOnly` sends no MCP tool schema
   * and lets MCP tools be called only from REPL programs.
   */
  codeMode?: { enabled?: boolean; mcpOnly?: boolean };
  /** Offer the PowerShell tool (runs `pwsh`). */
  powerShell?: boolean;
  /** Where teammates run: "in-process" (default) or "process" (each a `warden` child process; the CLI only). */
  teammateMode?: "in-process" | "process" | "tmux";
  /** MCP servers that may ask the session's model for completions (sampling) without asking the user. */
  mcpSamplingServers?: string[];
  /**
   * MCP servers the user turned off for this project (/mcp, the SDK's mcp_toggle): not started
   * until turned on again. Read from the folder's local settings, where the toggle writes it.
   */
  disabledMcpServers?: string[];
  /** The least severe log message MCP servers send (default "warning"). */
  mcpLogLevel?: McpLogLevel;
  /** Language servers for the LSP tool, by name (`typescript` and `pyright` change the built-in ones). */
  lspServers?: Record<string, Record<string, unknown>>;
  /** WebFetch's pre-approved hosts. */
  webFetch?: WebFetchSettings;
  /** The search service WebSearch uses. */
  webSearch?: WebSearchSettings;
  /** The output style the session starts with (config/output-styles.ts); default: Default. */
  outputStyle?: string;
  /** A command for the interactive UI's status line (Claude Code's `statusLine`). */
  statusLine?: StatusLineSettings;
  /** The model tools' side queries ask (WebFetch reading a page), of the session's provider. */
  smallFastModel?: string;
  /** A shell command that prints the Anthropic API key (Claude Code's `apiKeyHelper`). */
  apiKeyHelper?: string;
  /** The fleet a session may use (WARDEN_REDIS_URL wins): `{ "redisUrl": "redis://host:6379" }`. */
  fleet?: { redisUrl?: string; worker?: FleetWorkerSettings };
  /** Plugins on (`true`) or off (`false`) by `name@marketplace`, as Claude Code writes them (src/config/plugins/). */
  enabledPlugins?: Record<string, boolean>;
  /** Marketplaces this settings file adds by name: `{ "team": { "source": { "source": "git", "url": ... } } }`. */
  extraKnownMarketplaces?: Record<string, { source: Record<string, unknown> }>;
  [key: string]: unknown;
}
