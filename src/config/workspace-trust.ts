// What a front end needs to ask the user about a folder (`warden trust`, the interactive UI's trust
// prompt): what the folder's settings would grant, and recording the answer. The answer is bound to
// the fingerprint the user was shown: if the settings change between showing and answering, the
// next session finds another fingerprint and asks again.
import { loadSettings } from "./settings.js";
import { recordTrustedFolder, removeTrustedFolder, type WorkspaceTrust } from "./trust/index.js";

export interface InspectWorkspaceOptions {
  /** `--settings` values, when the session that will run has some (they can change the mode). */
  extraSettings?: string[];
}

/**
 * The folder's trust as a session there would see it: status, and every widening setting with
 * what it grants (`widening`, including keys Warden does not act on yet, flagged `known: false`).
 * Throws SettingsError when a settings file cannot be read safely.
 */
export function inspectWorkspaceTrust(folder: string, options: InspectWorkspaceOptions = {}): WorkspaceTrust {
  return loadSettings({ cwd: folder, extraSettings: options.extraSettings }).workspaceTrust;
}

/**
 * Trusts the folder for the settings `inspected` describes (call it with what the user was shown).
 * Returns the settings file written.
 */
export function trustWorkspace(inspected: Pick<WorkspaceTrust, "folder" | "fingerprint">): string {
  return recordTrustedFolder(inspected.folder, inspected.fingerprint);
}

/** Forgets the user's trust in the folder; false when there was none. */
export function untrustWorkspace(folder: string): boolean {
  return removeTrustedFolder(folder);
}

/**
 * Runs a write the user asked for into the folder's own settings ("don't ask again" saved to the
 * local file). If the folder was trusted before it, or had nothing that needed trust, it is trusted
 * with its new content: then the only widening it holds beyond what the user accepted is what the
 * user just added, and their own answer must not be ignored next time. A folder that was not
 * trusted stays so (the saved rule waits for `warden trust` with the rest).
 */
export function keepTrustAcrossOwnWrite<T>(folder: string, write: () => T): T {
  let before: WorkspaceTrust | undefined;
  try {
    before = inspectWorkspaceTrust(folder);
  } catch {
    before = undefined;
  }
  const result = write();
  if (before?.status === "trusted" || before?.status === "not_needed") {
    const after = inspectWorkspaceTrust(folder);
    if (after.status !== "not_needed" && after.fingerprint !== before.fingerprint) trustWorkspace(after);
  }
  return result;
}
