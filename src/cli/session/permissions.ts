// The permission side of a session's set-up (plan.ts and start.ts use it): the
// settings sources read once with the rules and modes from flags, the auto-mode classifier's
// model, and the settings' hooks and sandbox bound to the session once it exists.

import { queueReminders } from "../../hooks/queue-reminders.js";
import type { QueryEvent, TerminalEvent } from "../../loop/events.js";
import type { AutoModeClassifier } from "../../permissions/classifier/index.js";
import { createLazyClassifier, createModelClassifier } from "../../permissions/classifier/index.js";
import { loadSessionPermissions, type SessionPermissions } from "../../permissions/settings/index.js";
import type { AppState } from "../../tool/app-state.js";
import type { SessionChannels } from "../../tool/session-channels.js";
import type { SessionConfig } from "../flags/session-config.js";
import { defaultModelSpec, resolveModel } from "./model-choice.js";

const warn = (message: string) => void process.stderr.write(`warden: warning: ${message}\n`);

const setups = new WeakMap<SessionConfig, SessionPermissions>();

function readSessionPermissions(config: SessionConfig): SessionPermissions {
  return loadSessionPermissions({
    cwd: config.cwd,
    cli: {
      allowedTools: config.allowedTools,
      disallowedTools: config.disallowedTools,
      permissionMode: config.permissionMode,
      addDirs: config.addDirs,
      dangerouslySkipPermissions: config.dangerouslySkipPermissions,
      allowDangerouslySkipPermissions: config.allowDangerouslySkipPermissions,
    },
    extraSettings: config.settings !== undefined ? [config.settings] : [],
    trustProject: config.trustProject,
    sources: config.settingSources,
    pluginDirs: config.pluginDirs,
  });
}

/**
 * Keeps the settings read for `config`, saying their warnings and the trust notice where the front
 * end says things (the interactive UI's notices, not stderr under its screen); stderr by default.
 */
function remember(
  config: SessionConfig,
  setup: SessionPermissions,
  say: { warn: (message: string) => void; inform: (message: string) => void } = {
    warn,
    inform: (message) => void process.stderr.write(`warden: ${message}\n`),
  },
): SessionPermissions {
  for (const warning of setup.warnings) say.warn(warning);
  if (setup.trustNotice) say.inform(setup.trustNotice);
  setups.set(config, setup);
  return setup;
}

/** Reads the settings of this session once (throws, with the file and problem, when it must not start). */
export function sessionPermissions(config: SessionConfig): SessionPermissions {
  return setups.get(config) ?? remember(config, readSessionPermissions(config));
}

/**
 * sessionPermissions, after installing the plugins the settings in force turn on that are missing
 * (./auto-install in src/config/plugins: only what trust let through). `report` gets a line per
 * plugin installed, `warnLine` one per failure; the settings are read again only when something
 * was installed, so a session without missing plugins pays nothing more.
 */
export async function sessionPermissionsInstallingPlugins(
  config: SessionConfig,
  report: (line: string) => void,
  warnLine: (line: string) => void,
): Promise<SessionPermissions> {
  const cached = setups.get(config);
  if (cached) return cached;
  let setup = readSessionPermissions(config);
  const wanted = setup.settings.plugins?.installable ?? [];
  if (wanted.length > 0) {
    const { installTurnedOnPlugins } = await import("../../config/plugins/auto-install.js");
    const done = await installTurnedOnPlugins(wanted, config.cwd, setup.settings);
    for (const line of done.installed) report(line);
    for (const line of done.failed) warnLine(line);
    if (done.installed.length > 0) setup = readSessionPermissions(config);
  }
  return remember(config, setup, { warn: warnLine, inform: report });
}

/** Forgets the settings read for `config`, so the next session opened with it reads them again (/plugin). */
export function forgetSessionPermissions(config: SessionConfig): void {
  setups.delete(config);
}

/**
 * The auto-mode classifier's model: WARDEN_CLASSIFIER_MODEL, else the session's own model. A
 * replayed session's model is a script, so it has no classifier unless one is named explicitly.
 */
export function autoModeClassifier(config: SessionConfig): AutoModeClassifier | undefined {
  const fallback = defaultModelSpec();
  const spec = process.env.WARDEN_CLASSIFIER_MODEL || config.model || ("spec" in fallback ? fallback.spec : undefined);
  if (!spec || (spec.startsWith("replay:") && !process.env.WARDEN_CLASSIFIER_MODEL)) return undefined;
  return createLazyClassifier(`model:${spec}`, async () => {
    const { provider, model } = await resolveModel(spec, config.cwd);
    return createModelClassifier({ provider, model });
  });
}

/** What the engine needs of the session once it exists. */
export interface PermissionAwareSession {
  readonly sessionId: string;
  readonly transcriptPath: string;
  getAppState(): AppState;
  setAppState(update: (prev: AppState) => AppState): void;
  readonly channels: SessionChannels;
  recordEntry(entry: { type: string; [key: string]: unknown }): void;
  submitMessage(prompt: string): AsyncGenerator<QueryEvent, TerminalEvent>;
}

/** Hooks and sandbox settings into the session's AppState, decisions into its transcript. */
export function bindPermissions(config: SessionConfig, session: PermissionAwareSession): SessionPermissions {
  const setup = sessionPermissions(config);
  session.setAppState((prev) => ({ ...prev, ...setup.appState }));
  setup.hooks?.bindSession({
    sessionId: session.sessionId,
    transcriptPath: session.transcriptPath,
    getPermissionMode: () => session.getAppState().toolPermissionContext.mode,
    recordEntry: (entry) => session.recordEntry(entry),
  });
  // A hook's systemMessage is for the person: the loop shows it as a notice.
  setup.hooks?.onSystemMessage((event, text) => session.channels.hookMessages.send(`${event} hook: ${text}`));
  // What async hooks say once they finish reaches the model on its next request.
  setup.hooks?.onAsyncOutput((texts, errors) =>
    queueReminders(session, [
      ...texts.map((text) => `Async hook context: ${text}`),
      ...errors.map((text) => `Async hook error: ${text}`),
    ]),
  );
  // An asyncRewake hook that objected wakes the model: its text waits for the next request, and
  // an idle session starts a turn for it (loop/wake.ts).
  setup.hooks?.onRewake((rewake) => {
    queueReminders(session, [`${rewake.summary}\n${rewake.message}`]);
    session.channels.wake.raise();
  });
  return setup;
}
