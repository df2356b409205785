// `trustedFolders` in the user's own settings (~/.warden/settings.json): which folders the user has
// trusted, and with which settings. Only the user's files count: a repository cannot trust itself.
// Writing keeps every other key of the file and replaces it atomically under a lock, as the
// "don't ask again" writes do.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { withFileLockSync } from "../../fs/file-lock.js";
import { userSettingsPath } from "../paths.js";
import { readSettingsObjectForUpdate } from "../settings-object.js";
import type { TrustedFolderEntry } from "./types.js";

/** A folder's identity for trust: absolute, with symlinks resolved (a link must not borrow trust). */
export function trustIdentity(folder: string): string {
  const absolute = resolve(folder);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** The entry for `folder` among the user's entries (the last one wins, as later settings files do). */
export function findTrustEntry(entries: readonly TrustedFolderEntry[], folder: string): TrustedFolderEntry | undefined {
  let found: TrustedFolderEntry | undefined;
  for (const entry of entries) if (trustIdentity(entry.path) === folder) found = entry;
  return found;
}

/** Records that the user trusts `folder` with the settings whose fingerprint is `settingsHash`. */
export function recordTrustedFolder(folder: string, settingsHash: string, now = new Date()): string {
  const path = userSettingsPath();
  const identity = trustIdentity(folder);
  withFileLockSync(`${path}.lock`, () => {
    const settings = readSettingsObjectForUpdate(path);
    const kept = trustedFolderList(settings, path).filter((entry) => trustIdentity(String(entry.path)) !== identity);
    settings.trustedFolders = [...kept, { path: identity, settingsHash, trustedAt: now.toISOString() }];
    writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(settings, null, 2)}\n`, "utf8"));
  });
  return path;
}

/** Removes the user's trust in `folder`; false when it was not trusted. */
export function removeTrustedFolder(folder: string): boolean {
  const path = userSettingsPath();
  const identity = trustIdentity(folder);
  return withFileLockSync(`${path}.lock`, () => {
    const settings = readSettingsObjectForUpdate(path);
    const entries = trustedFolderList(settings, path);
    const kept = entries.filter((entry) => trustIdentity(String(entry.path)) !== identity);
    if (kept.length === entries.length) return false;
    settings.trustedFolders = kept;
    writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(settings, null, 2)}\n`, "utf8"));
    return true;
  });
}

function trustedFolderList(settings: Record<string, unknown>, path: string): Array<Record<string, unknown>> {
  const value = settings.trustedFolders;
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== "object" || entry === null)) {
    throw new Error(`${path}: trustedFolders is not a list of objects; not changing it`);
  }
  return value as Array<Record<string, unknown>>;
}
