// Where a CLI session's teammates run: in its own process (the default: no start-up, no memory or
// MCP servers of their own), or each in a `warden teammate` child process of its own
// (`--teammate-mode process`, settings `teammateMode`), also shown in a tmux pane each (`tmux`). Small on purpose: the process runner
// (./process-runner.ts) loads on the first teammate started that way.
import { type LoadedSettings, settingsValue } from "../../config/settings.js";
import type { TeammateRunner } from "../../loop/subagent/deps.js";
import type { SessionConfig } from "../flags/session-config.js";

export type TeammateMode = "in-process" | "process" | "tmux";

/** The flag, else settings `teammateMode`, else in process. */
export function teammateMode(config: SessionConfig, settings: LoadedSettings): TeammateMode {
  return config.teammateMode ?? settingsValue(settings, "teammateMode") ?? "in-process";
}

/** The runner for the mode (none: in this process), its code loaded when the first teammate starts. */
export function teammateRunnerFor(
  mode: TeammateMode,
  config: SessionConfig,
  warn: (message: string) => void,
): TeammateRunner | undefined {
  if (mode === "process") return processTeammateRunner(config, warn);
  if (mode !== "tmux") return undefined;
  // One runner for the session, even when teammates start together (its "not in tmux" is said once).
  let inPanes: Promise<TeammateRunner> | undefined;
  return async (deps, request, parent, setState) => {
    inPanes ??= import("./pane.js").then((pane) => pane.tmuxTeammateRunner(config, warn));
    return (await inPanes)(deps, request, parent, setState);
  };
}

/** The runner of process mode, loaded when the first teammate starts. */
export function processTeammateRunner(config: SessionConfig, warn: (message: string) => void): TeammateRunner {
  return async (deps, request, parent, setState) => {
    const { runTeammateProcess } = await import("./process-runner.js");
    return runTeammateProcess({ config, warn }, deps, request, parent, setState);
  };
}
