// ConfigChange (Claude Code's hooks reference): a settings file changed on disk while the session
// runs. Matcher: the source (user_settings, project_settings, local_settings, policy_settings).
// Warden reads settings when a session starts, so a changed file applies from the next session
// whatever the hooks say; a hook that blocks (exit 2, `decision: "block"`) is reported, and the
// hooks are where a user audits or vets such changes. Watched only when ConfigChange hooks exist.
import { existsSync, type FSWatcher, readFileSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { SettingsFileLocation } from "../config/settings.js";
import type { HookRunner } from "./hook-runner.js";

const SOURCES: Partial<Record<SettingsFileLocation["source"], string>> = {
  userSettings: "user_settings",
  projectSettings: "project_settings",
  localSettings: "local_settings",
  policySettings: "policy_settings",
};

/** Several writes of one save arrive as several events: the file is read once they have settled. */
const SETTLE_MS = 100;

function contentOf(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Watches the settings files' folders; returns the stop. */
export function watchSettingsFiles(
  hooks: HookRunner,
  locations: readonly SettingsFileLocation[],
  onWarning: (message: string) => void,
): () => void {
  const watchers: FSWatcher[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  const byFolder = new Map<string, Array<{ path: string; source: string; last: string | undefined }>>();
  for (const location of locations) {
    const source = SOURCES[location.source];
    if (source === undefined || location.inline !== undefined) continue;
    const folder = dirname(location.path);
    const files = byFolder.get(folder) ?? [];
    files.push({ path: location.path, source, last: contentOf(location.path) });
    byFolder.set(folder, files);
  }
  for (const [folder, files] of byFolder) {
    if (!existsSync(folder)) continue;
    try {
      const watcher = watch(folder, { persistent: false }, (_kind, name) => {
        const file = files.find((f) => basename(f.path) === String(name));
        if (!file) return;
        clearTimeout(timers.get(file.path));
        timers.set(
          file.path,
          setTimeout(() => {
            const now = contentOf(file.path);
            if (now === file.last) return;
            file.last = now;
            void hooks.configChange(file.source, file.path).then(({ blocked, errors }) => {
              for (const error of errors) onWarning(error);
              if (blocked !== undefined)
                onWarning(`a ConfigChange hook objects to the change of ${file.path}: ${blocked}`);
            });
          }, SETTLE_MS),
        );
      });
      watcher.on("error", () => watcher.close());
      watchers.push(watcher);
    } catch {
      // A folder that cannot be watched: its changes go unheard, as without the hook.
    }
  }
  return () => {
    for (const watcher of watchers) watcher.close();
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
