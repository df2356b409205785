// The control requests beyond the session's everyday ones (requests.ts), by group: information
// about the session, settings and rules, files and tasks, reloads, direct MCP calls. Loaded at the
// first such request; undefined means no group knows the request.
import type { JsonObject } from "./channel.js";
import type { StreamState } from "./stream-state.js";

type Group = (request: JsonObject, state: StreamState) => Promise<JsonObject | undefined>;

const GROUPS: Record<string, () => Promise<Group>> = {
  info: async () => (await import("./info-requests.js")).handleInfoRequest,
  settings: async () => (await import("./settings-requests.js")).handleSettingsRequest,
  workspace: async () => (await import("./workspace-requests.js")).handleWorkspaceRequest,
  reload: async () => (await import("./reload-requests.js")).handleReloadRequest,
  mcp: async () => (await import("./mcp-call.js")).handleMcpCallRequest,
};

const GROUP_OF: Record<string, keyof typeof GROUPS> = {
  get_binary_version: "info",
  get_session_cost: "info",
  get_usage: "info",
  list_models: "info",
  set_has_subscribers: "info",
  set_color: "info",
  cancel_async_message: "info",
  get_settings: "settings",
  get_hooks_listing: "settings",
  list_permission_rules: "settings",
  update_settings: "settings",
  rename_session: "workspace",
  read_file: "workspace",
  file_suggestions: "workspace",
  register_repo_root: "workspace",
  background_tasks: "workspace",
  get_task_output: "workspace",
  reload_skills: "reload",
  reload_output_styles: "reload",
  reload_plugins: "reload",
  mcp_call: "mcp",
  mcp_read_resource: "mcp",
};

export async function handleMoreRequests(request: JsonObject, state: StreamState): Promise<JsonObject | undefined> {
  const subtype = request.subtype;
  const group = typeof subtype === "string" && Object.hasOwn(GROUP_OF, subtype) ? GROUP_OF[subtype] : undefined;
  if (group === undefined) return undefined;
  const handle = await GROUPS[group]?.();
  return handle?.(request, state);
}
