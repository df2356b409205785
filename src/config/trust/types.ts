// The vocabulary of workspace trust. A folder's own settings (its project and local settings
// files, its .mcp.json) may always make a session stricter; what they would widen waits until
// the user has trusted the folder. These types say what was held back and why.

/**
 * - `not_needed`: the folder's settings only restrict (or it has none); nothing was held back.
 * - `trusted`: the user's settings trust this folder with exactly its current widening settings.
 * - `trusted_for_this_run`: `--trust-project` (one headless run, for CI).
 * - `untrusted`: what would widen was ignored; `withheld` lists it.
 */
export type WorkspaceTrustStatus = "not_needed" | "trusted" | "trusted_for_this_run" | "untrusted";

/** One part of the folder's settings that widens what the session may do. */
export interface WideningSetting {
  /** The file it is in, relative to the folder (`.warden/settings.local.json`, `.mcp.json`). */
  file: string;
  /** The setting's key, dotted (`permissions.allow`, `hooks`, `mcpServers.evil`). */
  key: string;
  /** What it would grant, for a person deciding whether to trust (never a secret value). */
  grants: string;
  /**
   * False for keys Warden does not act on yet: held back like the rest (and part of the
   * fingerprint), but not worth a notice on every run.
   */
  known: boolean;
}

export interface WorkspaceTrust {
  /** The folder whose settings these are, with symlinks resolved. */
  folder: string;
  status: WorkspaceTrustStatus;
  /** Everything in the folder's settings that widens, whether or not it was applied. */
  widening: WideningSetting[];
  /** `sha256:<hex>` of the widening settings as they are now; what a trust entry records. */
  fingerprint: string;
  /**
   * A trust entry for this folder exists but was given for other settings: they changed since,
   * so the user is asked again.
   */
  changedSinceTrusted: boolean;
  /**
   * The project skill and command files whose `allowed-tools` this trust covers (absolute path →
   * the grants as trust read them, src/config/trust/project-skills.ts grantsKey). A project file
   * missing here, or granting something else now, grants nothing. Absent: every project file's
   * grants hold (`--trust-project`).
   */
  skillGrants?: Readonly<Record<string, string>>;
}

/** An entry of `trustedFolders` in the user's settings. */
export interface TrustedFolderEntry {
  path: string;
  /** The fingerprint of the folder's widening settings when the user trusted it. */
  settingsHash: string;
  /** ISO time of trusting, for the user reading their settings. */
  trustedAt?: string;
}

/** Whether the folder's widening settings are in force. */
export function isWorkspaceTrusted(trust: Pick<WorkspaceTrust, "status">): boolean {
  return trust.status !== "untrusted";
}
