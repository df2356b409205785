// The sandbox's settings: a small typed shape the settings loader fills (from the `sandbox` key of
// a settings file) and places in AppState. Off unless a setting or WARDEN_SANDBOX=1 turns it on.
import type { AppState } from "../../tool/app-state.js";

export interface SandboxSettings {
  /** Run Bash commands inside bubblewrap. */
  enabled?: boolean;
  /** Let sandboxed commands use the network. Off by default: the sandbox gets only its own loopback. */
  allowNetwork?: boolean;
  /** Folders the sandbox may write besides the working directories and the session's temp folder. */
  additionalWritableDirectories?: string[];
  /**
   * Let sandboxed commands create Unix-domain sockets (and so reach host services such as the
   * Docker daemon or the ssh agent). Off by default.
   */
  allowUnixSockets?: boolean;
  /**
   * Whether the model may ask for a run outside the sandbox (dangerouslyDisableSandbox). Default
   * true: such a run then goes through the ordinary permission rules. False: it is refused.
   */
  allowUnsandboxedCommands?: boolean;
}

declare module "../../tool/app-state.js" {
  interface AppState {
    /** The merged `sandbox` settings of this session, as the settings loader parsed them. */
    sandboxSettings?: SandboxSettings;
  }
}

export interface ResolvedSandboxSettings {
  enabled: boolean;
  allowNetwork: boolean;
  additionalWritableDirectories: string[];
  allowUnixSockets: boolean;
  allowUnsandboxedCommands: boolean;
}

/**
 * Reads a raw `sandbox` settings value. Fields of the wrong type are dropped rather than guessed
 * at. Claude Code's shape is understood too: `network.allowedDomains` containing "*" allows the
 * network (we cannot filter by domain, so any narrower list keeps it off),
 * `network.allowAllUnixSockets` allows Unix sockets, and `filesystem.allowWrite` adds writable
 * folders.
 */
export function parseSandboxSettings(raw: unknown): SandboxSettings {
  if (!isRecord(raw)) return {};
  const settings: SandboxSettings = {};
  if (typeof raw.enabled === "boolean") settings.enabled = raw.enabled;
  if (typeof raw.allowNetwork === "boolean") settings.allowNetwork = raw.allowNetwork;
  if (isRecord(raw.network) && Array.isArray(raw.network.allowedDomains)) {
    if (raw.network.allowedDomains.includes("*")) settings.allowNetwork = true;
  }
  if (typeof raw.allowUnixSockets === "boolean") settings.allowUnixSockets = raw.allowUnixSockets;
  if (isRecord(raw.network) && raw.network.allowAllUnixSockets === true) settings.allowUnixSockets = true;
  const writable = [
    ...stringArray(raw.additionalWritableDirectories),
    ...(isRecord(raw.filesystem) ? stringArray(raw.filesystem.allowWrite) : []),
  ];
  if (writable.length) settings.additionalWritableDirectories = writable;
  if (typeof raw.allowUnsandboxedCommands === "boolean")
    settings.allowUnsandboxedCommands = raw.allowUnsandboxedCommands;
  return settings;
}

export function resolveSandboxSettings(
  state: Pick<AppState, "sandboxSettings">,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedSandboxSettings {
  const settings = state.sandboxSettings ?? {};
  return {
    // The environment can switch the sandbox on, never off: a managed setting that requires it
    // must not be undone by an environment variable.
    enabled: settings.enabled === true || env.WARDEN_SANDBOX === "1",
    allowNetwork: settings.allowNetwork === true,
    additionalWritableDirectories: settings.additionalWritableDirectories ?? [],
    allowUnixSockets: settings.allowUnixSockets === true,
    allowUnsandboxedCommands: settings.allowUnsandboxedCommands !== false,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
