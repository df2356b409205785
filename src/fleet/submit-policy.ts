// What the submitter's own settings say about the jobs they submit. A worker runs a job headless,
// on someone else's machine, with nobody to ask; so bypass mode, which skips every ask, is the
// one setting a job may not choose for itself: the submitter's settings (in the folder they submit
// from) must already put their own sessions in bypass mode, and none may switch bypass off.
import { loadSettings } from "../config/settings.js";
import type { JobSpec } from "./job-spec.js";
import { FleetUsageError } from "./redis.js";

export function checkSubmitPolicy(specs: readonly JobSpec[], cwd: string): void {
  if (!specs.some((spec) => spec.permissionMode === "bypassPermissions")) return;
  const loaded = loadSettings({ cwd });
  let defaultMode: string | undefined;
  for (const file of loaded.files) {
    const permissions = file.settings.permissions;
    if (permissions?.disableBypassPermissionsMode === "disable") {
      throw new FleetUsageError(
        `permissionMode "bypassPermissions" refused: ${file.path} switches bypass mode off (disableBypassPermissionsMode)`,
      );
    }
    if (permissions?.defaultMode !== undefined) defaultMode = permissions.defaultMode;
  }
  if (defaultMode !== "bypassPermissions") {
    throw new FleetUsageError(
      'permissionMode "bypassPermissions" refused: a fleet job runs unattended, so bypass mode needs your own settings to allow it (permissions.defaultMode "bypassPermissions" in your settings); use allowedTools rules instead',
    );
  }
}
