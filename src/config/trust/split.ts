// Splits one settings file from the project folder into what may apply at once (it can only make
// the session stricter) and what must wait for the user's trust (it widens). Fail closed: a key is
// kept only when it is known to restrict; every other key, including ones no module reads yet, is
// held back, so a setting added to Warden later cannot be widened by an untrusted repository.
import type { PermissionMode } from "../../tool/permission-types.js";
import type { Settings } from "../settings-schema.js";

/** How much a mode lets through without asking; a lower rank restricts. */
const MODE_RANK: Record<PermissionMode, number> = {
  plan: 1,
  dontAsk: 1,
  default: 2,
  acceptEdits: 3,
  auto: 4,
  bypassPermissions: 5,
};

/** Permission keys that only ever take away: rules that deny or ask, the bypass switch-off. */
const RESTRICTING_PERMISSION_KEYS = new Set(["deny", "ask", "disableBypassPermissionsMode"]);

/** Top-level keys that neither grant nor take away anything (kept, never held back). */
const NEUTRAL_KEYS = new Set(["$schema", "toolSearch"]);

/** Top-level keys that only restrict. */
const RESTRICTING_KEYS = new Set(["disabledMcpjsonServers", "disabledMcpServers"]);

/**
 * Sandbox fields and the one value of each that restricts; the other value (and every other
 * sandbox field: writable folders, network domains, sockets) widens.
 */
const RESTRICTING_SANDBOX_VALUES: Record<string, unknown> = {
  enabled: true,
  allowNetwork: false,
  allowUnixSockets: false,
  allowUnsandboxedCommands: false,
  autoAllowBashIfSandboxed: false,
};

export interface SplitSettings {
  /** What applies whether or not the folder is trusted. */
  restricting: Settings;
  /** What waits for trust, in the file's own shape (empty object when nothing widens). */
  widening: Record<string, unknown>;
}

/**
 * `trustedMode` is the mode the user's own sources (user settings, the command line's settings,
 * policy) would give; a folder's `defaultMode` applies only when it is narrower than that.
 */
export function splitProjectSettings(settings: Settings, trustedMode: PermissionMode): SplitSettings {
  const restricting: Settings = {};
  const widening: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (NEUTRAL_KEYS.has(key) || RESTRICTING_KEYS.has(key)) {
      restricting[key] = value;
    } else if (key === "permissions" && isRecord(value)) {
      const { kept, held } = splitPermissions(value, trustedMode);
      if (Object.keys(kept).length > 0) restricting.permissions = kept;
      if (Object.keys(held).length > 0) widening.permissions = held;
    } else if (key === "enabledPlugins" && isRecord(value)) {
      // A plugin turned off only takes away; one turned on runs its hooks, servers and commands.
      const { kept, held } = splitEnabledPlugins(value);
      if (Object.keys(kept).length > 0) restricting.enabledPlugins = kept as Record<string, boolean>;
      if (Object.keys(held).length > 0) widening.enabledPlugins = held;
    } else if (key === "sandbox" && isRecord(value)) {
      const { kept, held } = splitSandbox(value);
      if (Object.keys(kept).length > 0) restricting.sandbox = kept;
      if (Object.keys(held).length > 0) widening.sandbox = held;
    } else {
      widening[key] = value;
    }
  }
  return { restricting, widening };
}

function splitPermissions(
  permissions: Record<string, unknown>,
  trustedMode: PermissionMode,
): { kept: Record<string, unknown>; held: Record<string, unknown> } {
  const kept: Record<string, unknown> = {};
  const held: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(permissions)) {
    if (value === undefined) continue;
    if (RESTRICTING_PERMISSION_KEYS.has(key)) kept[key] = value;
    else if (key === "defaultMode" && isNarrowerMode(value, trustedMode)) kept[key] = value;
    else if (key === "defaultMode" && value === trustedMode) kept[key] = value;
    else held[key] = value;
  }
  return { kept, held };
}

function splitEnabledPlugins(plugins: Record<string, unknown>): {
  kept: Record<string, unknown>;
  held: Record<string, unknown>;
} {
  const kept: Record<string, unknown> = {};
  const held: Record<string, unknown> = {};
  for (const [id, on] of Object.entries(plugins)) {
    if (on === false) kept[id] = on;
    else held[id] = on;
  }
  return { kept, held };
}

function isNarrowerMode(mode: unknown, than: PermissionMode): boolean {
  return typeof mode === "string" && mode in MODE_RANK && MODE_RANK[mode as PermissionMode] < MODE_RANK[than];
}

function splitSandbox(sandbox: Record<string, unknown>): {
  kept: Record<string, unknown>;
  held: Record<string, unknown>;
} {
  const kept: Record<string, unknown> = {};
  const held: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sandbox)) {
    if (value === undefined) continue;
    if (key === "network" && isRecord(value)) {
      // Refused domains only take away; every other network field (allowed domains...) widens.
      const { deniedDomains, ...rest } = value;
      if (deniedDomains !== undefined) kept.network = { deniedDomains };
      if (Object.keys(rest).length > 0) held.network = rest;
      continue;
    }
    if (key in RESTRICTING_SANDBOX_VALUES && RESTRICTING_SANDBOX_VALUES[key] === value) kept[key] = value;
    else held[key] = value;
  }
  return { kept, held };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
