// The sandbox's settings: the settings loader parses the `sandbox` key of a settings file into
// SandboxSettings (declared in the contract, src/tool/shell-state.ts, because AppState holds it)
// and this resolves them into what a run uses. Off unless a setting or WARDEN_SANDBOX=1 turns it on.
import type { AppState } from "../../tool/app-state.js";
import type { SandboxSettings } from "../../tool/shell-state.js";

export type { SandboxSettings };

export interface ResolvedSandboxSettings {
  enabled: boolean;
  allowNetwork: boolean;
  /** Without allowNetwork: the hosts the filtering proxy lets through (empty: no network). */
  allowedDomains: string[];
  deniedDomains: string[];
  additionalWritableDirectories: string[];
  /** Program names whose commands run outside the sandbox. */
  excludedCommands: string[];
  autoAllowBashIfSandboxed: boolean;
  allowUnixSockets: boolean;
  allowUnsandboxedCommands: boolean;
}

/**
 * Reads a raw `sandbox` settings value. Fields of the wrong type are dropped rather than guessed
 * at. Claude Code's shape is understood too: `network.allowedDomains` containing "*" allows the
 * whole network, a narrower list lets commands reach those hosts only, through the filtering
 * proxy (network-proxy.ts), and `network.deniedDomains` refuses hosts within it,
 * `network.allowAllUnixSockets` allows Unix sockets, and `filesystem.allowWrite` adds writable
 * folders.
 */
export function parseSandboxSettings(raw: unknown): SandboxSettings {
  if (!isRecord(raw)) return {};
  const settings: SandboxSettings = {};
  if (typeof raw.enabled === "boolean") settings.enabled = raw.enabled;
  if (typeof raw.allowNetwork === "boolean") settings.allowNetwork = raw.allowNetwork;
  if (isRecord(raw.network) && Array.isArray(raw.network.allowedDomains)) {
    const domains = stringArray(raw.network.allowedDomains).filter((domain) => domain.trim());
    if (domains.includes("*")) settings.allowNetwork = true;
    else if (domains.length) settings.allowedDomains = domains;
  }
  if (isRecord(raw.network) && Array.isArray(raw.network.deniedDomains)) {
    const denied = stringArray(raw.network.deniedDomains).filter((domain) => domain.trim());
    if (denied.length) settings.deniedDomains = denied;
  }
  const excluded = stringArray(raw.excludedCommands).filter((command) => command.trim());
  if (excluded.length) settings.excludedCommands = excluded;
  if (typeof raw.autoAllowBashIfSandboxed === "boolean")
    settings.autoAllowBashIfSandboxed = raw.autoAllowBashIfSandboxed;
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
    allowedDomains: settings.allowedDomains ?? [],
    deniedDomains: settings.deniedDomains ?? [],
    additionalWritableDirectories: settings.additionalWritableDirectories ?? [],
    excludedCommands: (settings.excludedCommands ?? []).flatMap(excludedProgramName),
    // Off unless set: Claude Code turns it on by default, but a command no rule allows should
    // run unasked only where the user chose that.
    autoAllowBashIfSandboxed: settings.autoAllowBashIfSandboxed === true,
    allowUnixSockets: settings.allowUnixSockets === true,
    allowUnsandboxedCommands: settings.allowUnsandboxedCommands !== false,
  };
}

/**
 * The program an excludedCommands entry names (`docker`, `docker:*`, `docker *`); none for a longer
 * prefix (`npm run test`): the analysis gives program names only, and matching `npm` instead would
 * take more out of the sandbox than the entry asked for.
 */
function excludedProgramName(entry: string): string[] {
  const name = entry.trim().replace(/(?::\*|\s+\*)$/, "");
  return name && !/\s/.test(name) && !name.includes("*") ? [name] : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
