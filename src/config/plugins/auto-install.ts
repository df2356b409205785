// Plugins a settings file turns on that are not installed yet, installed as a session starts: a
// team's `.claude/settings.json` naming its marketplace in `extraKnownMarketplaces` and its plugins
// in `enabledPlugins` sets up every member's Warden, as it does Claude Code. Only what the files in
// force ask for arrives here: an untrusted project's `enabledPlugins: true` and
// `extraKnownMarketplaces` were cut by workspace trust before (src/config/trust/), so a folder
// cannot install anything until the person trusts it. A plugin that fails to install (a dead git
// URL, a broken manifest) is said with its reason and the session starts without it.
import type { LoadedSettings } from "../settings.js";
import type { PluginToInstall } from "./active.js";
import { installPlugin } from "./install.js";

export interface AutoInstallReport {
  /** One line per plugin installed: what, which version, and which scope's settings asked for it. */
  installed: string[];
  /** One line per plugin that could not be installed, with why. */
  failed: string[];
}

export async function installTurnedOnPlugins(
  wanted: readonly PluginToInstall[],
  cwd: string,
  settings: LoadedSettings,
): Promise<AutoInstallReport> {
  const report: AutoInstallReport = { installed: [], failed: [] };
  // One at a time: installs write the same registry file.
  for (const { id, scope, settingsFile } of wanted) {
    try {
      const done = await installPlugin(id, { scope, cwd, settings, turnOn: false });
      report.installed.push(
        `installed plugin ${id} ${done.install.version} (turned on in ${settingsFile ?? done.settingsFile})`,
      );
    } catch (error) {
      report.failed.push(
        `plugin ${id} is turned on in settings but could not be installed: ${(error as Error).message}; the session starts without it`,
      );
    }
  }
  return report;
}
