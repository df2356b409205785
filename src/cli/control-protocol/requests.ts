// The SDK's control requests, answered from the running session. A request we do not handle gets
// an error response naming it (the SDK rejects that one call), never silence.

import { loadOutputStyles } from "../../config/output-styles.js";
import type { PermissionMode } from "../../tool/permission-types.js";
import { builtInCatalog } from "../../tools/agent/catalog.js";
import { thinkingFromBudget } from "../flags/thinking-option.js";
import { modelCatalog } from "../session/model-catalog.js";
import { wardenVersion } from "../version.js";
import type { JsonObject } from "./channel.js";
import { applyFlagSettings } from "./flag-settings.js";
import { handleMcpRequest } from "./mcp-requests.js";
import { seedReadState } from "./seed-read-state.js";
import { slashCommands } from "./slash-commands.js";
import type { StreamState } from "./stream-state.js";

export async function handleControlRequest(request: JsonObject, state: StreamState): Promise<JsonObject> {
  const { built, sdkServers, reporter } = state;
  const { session } = built;
  switch (request.subtype) {
    case "interrupt":
      state.interruptRequested = true;
      built.commands.interrupt("user");
      return {};
    case "set_permission_mode": {
      if (typeof request.mode !== "string") {
        throw new Error(`set_permission_mode: the mode must be a string, not ${JSON.stringify(request.mode)}`);
      }
      let mode: PermissionMode;
      try {
        mode = built.commands.setPermissionMode(request.mode);
      } catch (error) {
        throw new Error(`set_permission_mode: ${(error as Error).message}`);
      }
      reporter.system({ subtype: "status", status: null, permissionMode: mode });
      return {};
    }
    case "set_model": {
      const wanted = typeof request.model === "string" ? request.model : undefined;
      const { errors } = await built.commands.setModel(wanted, "sdk");
      for (const error of errors) process.stderr.write(`warden: ${error}\n`);
      return {};
    }
    case "set_max_thinking_tokens":
      // Left out: the budget stays (the request may only change the display, which we do not).
      if ("max_thinking_tokens" in request) {
        session.thinking = thinkingFromBudget(request.max_thinking_tokens, built.plan.config.thinking);
      }
      return {};
    case "get_context_usage":
      return {
        ...(await session.contextUsage()),
        rawMaxTokens: session.modelInfo.contextWindow,
        gridRows: [],
        memoryFiles: [],
        agents: [],
      };
    case "rewind_files": {
      if (!state.checkpoints) {
        throw new Error(
          "rewind_files: file checkpointing is off (enableFileCheckpointing, --enable-file-checkpointing)",
        );
      }
      if (typeof request.user_message_id !== "string") throw new Error("rewind_files: user_message_id is missing");
      return { ...state.checkpoints.rewind(request.user_message_id, request.dry_run === true) };
    }
    case "stop_task": {
      const id = String(request.task_id);
      const stopped = await session.getAppState().backgroundTasks?.stop(id);
      if (!stopped) throw new Error(`stop_task: no running task ${JSON.stringify(id)}`);
      return {};
    }
    case "mcp_status":
    case "mcp_set_servers":
    case "mcp_reconnect":
    case "mcp_toggle":
      return (await handleMcpRequest(request, state)) ?? {};
    case "seed_read_state":
      return seedReadState(request, session);
    case "apply_flag_settings": {
      const mode = await applyFlagSettings(request, state);
      if (mode) reporter.system({ subtype: "status", status: null, permissionMode: mode });
      return {};
    }
    case "mcp_message": {
      const server = sdkServers.find((s) => s.name === request.server_name);
      if (!server) throw new Error(`mcp_message: no SDK MCP server named ${JSON.stringify(request.server_name)}`);
      server.transport.deliver(request.message as Parameters<typeof server.transport.deliver>[0]);
      return {};
    }
    default: {
      // The rarer requests, each group in its own file, loaded at its first use.
      const { handleMoreRequests } = await import("./more-requests.js");
      const answer = await handleMoreRequests(request, state);
      if (answer === undefined) throw new Error(`unsupported control request: ${JSON.stringify(request.subtype)}`);
      return answer;
    }
  }
}

/** What initialize answers: the session's commands, agents and models, in the SDK's shapes. */
export function initializeResponse(state: StreamState): JsonObject {
  const { built } = state;
  return {
    commands: slashCommands(state),
    agents: (built.agentCatalog ?? builtInCatalog()).agents.map((a) => ({
      name: a.agentType,
      description: a.whenToUse ?? "",
    })),
    output_style: built.outputStyle,
    // Every style the project can use (built-in, user's, project's): the SDK's supportedOutputStyles.
    available_output_styles: availableOutputStyles(built.outputStyle, built.plan.config.cwd),
    models: modelCatalog(state.built),
    account: {},
    claude_code_version: wardenVersion(),
    pid: process.pid,
  };
}

/** The style in force first, then the others, each name once whatever its case ("default" and "Default"). */
function availableOutputStyles(inForce: string, cwd: string): string[] {
  const names = [inForce];
  for (const style of loadOutputStyles(cwd))
    if (!names.some((name) => name.toLowerCase() === style.name.toLowerCase())) names.push(style.name);
  return names;
}
