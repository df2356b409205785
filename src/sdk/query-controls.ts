// The Query object's control methods, as the Agent SDK's Query has them: each sends one control
// request to the session and returns its answer. Shared by the in-process query() (query.ts) and
// listed for the library's lazy front (index.ts), so both offer the same methods.
import type { JsonObject } from "../cli/control-protocol/channel.js";
import type {
  ContextUsageResponse,
  McpServerConfig,
  McpSetServersResult,
  PermissionMode,
  QueryControlMethods,
  RewindFilesResult,
} from "./types.js";

/** The names of the control methods, for the library's front that forwards each once loaded. */
export const CONTROL_METHODS = [
  "interrupt",
  "setPermissionMode",
  "setModel",
  "setMaxThinkingTokens",
  "getContextUsage",
  "rewindFiles",
  "stopTask",
  "applyFlagSettings",
  "updateSettings",
  "getSettings",
  "getHooksListing",
  "listPermissionRules",
  "supportedModels",
  "mcpServerStatus",
  "setMcpServers",
  "reconnectMcpServer",
  "toggleMcpServer",
  "readMcpResource",
  "seedReadState",
  "reloadSkills",
  "reloadPlugins",
  "reloadOutputStyles",
  "readFile",
  "backgroundTasks",
  "getTaskOutput",
  "cancelAsyncMessage",
  "renameSession",
  "usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET",
] as const satisfies ReadonlyArray<keyof QueryControlMethods>;

export abstract class QueryControls implements QueryControlMethods {
  protected abstract request(request: JsonObject): Promise<JsonObject>;

  async interrupt(): Promise<void> {
    await this.request({ subtype: "interrupt" });
  }

  async setPermissionMode(mode: PermissionMode): Promise<void> {
    await this.request({ subtype: "set_permission_mode", mode });
  }

  async setModel(model?: string): Promise<void> {
    await this.request({ subtype: "set_model", ...(model !== undefined && { model }) });
  }

  async setMaxThinkingTokens(maxThinkingTokens: number | null): Promise<void> {
    await this.request({ subtype: "set_max_thinking_tokens", max_thinking_tokens: maxThinkingTokens });
  }

  async getContextUsage(): Promise<ContextUsageResponse> {
    return (await this.request({ subtype: "get_context_usage" })) as unknown as ContextUsageResponse;
  }

  async rewindFiles(userMessageId: string, options?: { dryRun?: boolean }): Promise<RewindFilesResult> {
    const request = { subtype: "rewind_files", user_message_id: userMessageId, dry_run: options?.dryRun === true };
    return (await this.request(request)) as unknown as RewindFilesResult;
  }

  async stopTask(taskId: string): Promise<void> {
    await this.request({ subtype: "stop_task", task_id: taskId });
  }

  async applyFlagSettings(settings: Record<string, unknown>): Promise<void> {
    await this.request({ subtype: "apply_flag_settings", settings });
  }

  async updateSettings(source: "localSettings" | "userSettings", settings: Record<string, unknown>): Promise<void> {
    await this.request({ subtype: "update_settings", source, settings });
  }

  getSettings(): Promise<JsonObject> {
    return this.request({ subtype: "get_settings" });
  }

  getHooksListing(): Promise<JsonObject> {
    return this.request({ subtype: "get_hooks_listing" });
  }

  listPermissionRules(): Promise<JsonObject> {
    return this.request({ subtype: "list_permission_rules" });
  }

  async supportedModels(): Promise<JsonObject[]> {
    return ((await this.request({ subtype: "list_models" })).models as JsonObject[] | undefined) ?? [];
  }

  async mcpServerStatus(): Promise<JsonObject[]> {
    return ((await this.request({ subtype: "mcp_status" })).mcpServers as JsonObject[] | undefined) ?? [];
  }

  /** Needs the query's own in-process servers, so each query implements it. */
  abstract setMcpServers(servers: Record<string, McpServerConfig>): Promise<McpSetServersResult>;

  async reconnectMcpServer(serverName: string): Promise<void> {
    await this.request({ subtype: "mcp_reconnect", serverName });
  }

  async toggleMcpServer(serverName: string, enabled: boolean): Promise<void> {
    await this.request({ subtype: "mcp_toggle", serverName, enabled });
  }

  readMcpResource(serverName: string, uri: string): Promise<JsonObject> {
    return this.request({ subtype: "mcp_read_resource", serverName, uri });
  }

  async seedReadState(path: string, mtime: number): Promise<void> {
    await this.request({ subtype: "seed_read_state", path, mtime });
  }

  reloadSkills(): Promise<JsonObject> {
    return this.request({ subtype: "reload_skills" });
  }

  reloadPlugins(options?: { addPlugins?: unknown[] }): Promise<JsonObject> {
    return this.request({
      subtype: "reload_plugins",
      ...(options?.addPlugins?.length && { add_plugins: options.addPlugins }),
    });
  }

  reloadOutputStyles(): Promise<JsonObject> {
    return this.request({ subtype: "reload_output_styles" });
  }

  /** The file, or null when it cannot be read or reading it is not allowed (as the SDK's readFile). */
  async readFile(
    path: string,
    options?: { maxBytes?: number; encoding?: "utf-8" | "base64" },
  ): Promise<JsonObject | null> {
    try {
      return await this.request({
        subtype: "read_file",
        path,
        ...(options?.maxBytes !== undefined && { max_bytes: options.maxBytes }),
        ...(options?.encoding !== undefined && { encoding: options.encoding }),
      });
    } catch {
      return null;
    }
  }

  async backgroundTasks(toolUseId?: string): Promise<boolean> {
    const answer = await this.request({ subtype: "background_tasks", ...(toolUseId && { tool_use_id: toolUseId }) });
    return answer.backgrounded === true;
  }

  getTaskOutput(taskId: string): Promise<JsonObject> {
    return this.request({ subtype: "get_task_output", task_id: taskId });
  }

  async cancelAsyncMessage(messageUuid: string): Promise<boolean> {
    return (await this.request({ subtype: "cancel_async_message", message_uuid: messageUuid })).cancelled === true;
  }

  async renameSession(title: string, sessionId?: string): Promise<void> {
    await this.request({
      subtype: "rename_session",
      title,
      source: "host",
      ...(sessionId && { session_id: sessionId }),
    });
  }

  usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET(): Promise<JsonObject> {
    return this.request({ subtype: "get_usage" });
  }
}
