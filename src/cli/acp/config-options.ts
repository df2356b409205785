// The session's settings an editor shows as pickers (ACP's `configOptions`): the model, as Claude
// Code's ACP agent offers it, so the person can switch models from the editor without restarting
// the agent; and the permission mode, the same choice `modes` gives, for editors that read only
// config options.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { PermissionModeError } from "../../control/session-commands.js";
import { PERMISSION_MODES, type PermissionMode } from "../../tool/permission-types.js";
import { modelCatalog } from "../session/model-catalog.js";
import type { AcpSession } from "./open-session.js";

export const MODE_NAMES: Record<PermissionMode, string> = {
  default: "Default: ask before edits and commands",
  acceptEdits: "Accept edits",
  plan: "Plan: read only until a plan is approved",
  bypassPermissions: "Bypass permissions",
  dontAsk: "Don't ask: deny what is not allowed",
  auto: "Auto: a classifier decides",
};

/** The modes the session may take (`bypassPermissions` only when started with it). */
export function availableModes(entry: AcpSession): PermissionMode[] {
  const context = entry.built.session.getAppState().toolPermissionContext;
  return PERMISSION_MODES.filter((mode) => mode !== "bypassPermissions" || context.isBypassPermissionsModeAvailable);
}

export function configOptions(entry: AcpSession): acp.SessionConfigOption[] {
  const models = modelCatalog(entry.built);
  return [
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: entry.built.session.getAppState().toolPermissionContext.mode,
      options: availableModes(entry).map((mode) => ({ value: mode, name: MODE_NAMES[mode] })),
    },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      // The catalog's first entry is the session's model.
      currentValue: models[0]?.value ?? entry.built.provider.current.label,
      options: models.map((model) => ({ value: model.value, name: model.displayName, description: model.description })),
    },
  ];
}

/** Switches the permission mode; an unknown or unavailable one is invalid params, naming why. */
export function setMode(entry: AcpSession, modeId: string): PermissionMode {
  try {
    return entry.built.commands.setPermissionMode(modeId);
  } catch (error) {
    if (!(error instanceof PermissionModeError)) throw error;
    throw acp.RequestError.invalidParams({ modeId }, `unknown or unavailable mode ${modeId}: ${error.message}`);
  }
}

/**
 * session/set_config_option: the mode, or the model from the next request (any model name Warden
 * takes, not only the listed ones). A name that resolves to nothing, or a PreModelSwitch hook's
 * refusal, is invalid params with the reason; nothing changes then.
 */
export async function setConfigOption(
  entry: AcpSession,
  params: acp.SetSessionConfigOptionRequest,
  warn: (message: string) => void,
): Promise<void> {
  if (typeof params.value !== "string") {
    throw acp.RequestError.invalidParams({ configId: params.configId }, `${params.configId} takes a value id`);
  }
  if (params.configId === "mode") {
    setMode(entry, params.value);
    return;
  }
  if (params.configId !== "model") {
    throw acp.RequestError.invalidParams({ configId: params.configId }, `no such setting ${params.configId}`);
  }
  try {
    const { errors } = await entry.built.commands.setModel(params.value, "picker");
    for (const error of errors) warn(error);
  } catch (error) {
    if (error instanceof acp.RequestError) throw error;
    // A refusing hook (ModelSwitchRefusedError) or a name no provider takes: said as it is.
    const why = error instanceof Error ? error.message : String(error);
    throw acp.RequestError.invalidParams({ configId: "model", value: params.value }, why);
  }
}
