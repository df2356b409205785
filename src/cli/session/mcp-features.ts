// What a session lets its MCP servers ask of it: questions go to whoever the front end names (the
// interactive UI's form, the Agent SDK's onElicitation), or with no one are declined with a warning
// naming the server; completions for the servers settings name (`mcpSamplingServers`) or, where a
// person is there to ask (the interactive UI), once they approve, counted in the session's cost; the working directories as roots; log
// messages at `mcpLogLevel` or above, shown with --verbose.
import type { LoadedSettings } from "../../config/settings.js";
import { settingsValue } from "../../config/settings.js";
import { createProviderSampler } from "../../mcp/client-features/sampling.js";
import type { McpClientFeatures, ServerLogMessage } from "../../mcp/client-features/types.js";
import type { Usage } from "../../messages/types.js";
import type { Provider } from "../../providers/types.js";
import type { AppState } from "../../tool/app-state.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";

export interface HeadlessMcpFeatureParts {
  settings: LoadedSettings;
  provider: Provider;
  model: string;
  /** The session's working directories as they are now. */
  workingDirectories: () => readonly string[];
  recordUsage: (usage: Usage) => void;
  warn: (message: string) => void;
  onServerLog: (message: ServerLogMessage) => void;
  onElicitation?: McpClientFeatures["onElicitation"];
  onElicitationComplete?: McpClientFeatures["onElicitationComplete"];
  approveSampling?: McpClientFeatures["approveSampling"];
  hooks?: McpClientFeatures["hooks"];
}

/**
 * The folders a session works in, as roots: its working directories, with the folder it started
 * in replaced by the worktree it works in after EnterWorktree (the main checkout is left alone
 * there, so a server should not be pointed at it).
 */
export function sessionRoots(
  cwd: string,
  state: Pick<AppState, "worktree"> | undefined,
  permissions: Pick<ToolPermissionContext, "workingDirectories">,
): string[] {
  const worktree = state?.worktree?.path;
  const dirs = permissions.workingDirectories.map((dir) => (worktree && dir === cwd ? worktree : dir));
  return [...new Set(worktree && !dirs.includes(worktree) ? [worktree, ...dirs] : dirs)];
}

export function headlessMcpFeatures(parts: HeadlessMcpFeatureParts): McpClientFeatures {
  const samplingServers = settingsValue(parts.settings, "mcpSamplingServers") ?? [];
  const logLevel = settingsValue(parts.settings, "mcpLogLevel");
  return {
    sampler: createProviderSampler({ provider: parts.provider, model: parts.model, recordUsage: parts.recordUsage }),
    samplingAllowedServers: samplingServers,
    roots: parts.workingDirectories,
    ...(logLevel !== undefined && { logLevel }),
    onServerLog: parts.onServerLog,
    warn: parts.warn,
    ...(parts.onElicitation && { onElicitation: parts.onElicitation }),
    ...(parts.onElicitationComplete && { onElicitationComplete: parts.onElicitationComplete }),
    ...(parts.approveSampling && { approveSampling: parts.approveSampling }),
    ...(parts.hooks && { hooks: parts.hooks }),
  };
}
