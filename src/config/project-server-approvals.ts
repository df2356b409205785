// Which .mcp.json (and project-settings) servers the user approved. Read both by the MCP loader,
// which starts only approved servers, and by the trust listing, which says whether a server runs
// once the folder is trusted or still waits for `warden mcp approve`; one reading keeps the two
// from disagreeing. Kept free of other imports: the trust check runs at every start.
import type { Settings } from "./settings-schema.js";

export interface ProjectServerApprovals {
  all: boolean;
  enabled: Set<string>;
  disabled: Set<string>;
}

interface SettingsFileLike {
  source: string;
  settings: Settings;
}

/** Approvals count only from files the repository cannot ship: user, local, command line, policy. */
export function projectServerApprovals(files: readonly SettingsFileLike[]): ProjectServerApprovals {
  const approvals: ProjectServerApprovals = { all: false, enabled: new Set(), disabled: new Set() };
  for (const file of files) {
    if (file.source === "projectSettings") continue;
    const s = file.settings;
    if (s.enableAllProjectMcpServers === true) approvals.all = true;
    for (const name of stringList(s.enabledMcpjsonServers)) approvals.enabled.add(name);
    for (const name of stringList(s.disabledMcpjsonServers)) approvals.disabled.add(name);
  }
  return approvals;
}

/** Approved and not turned off: `disabledMcpjsonServers` wins, as it does when servers start. */
export function isProjectServerApproved(name: string, approvals: ProjectServerApprovals): boolean {
  return !approvals.disabled.has(name) && (approvals.all || approvals.enabled.has(name));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
