// The permission engine wired into the headless CLI: settings sources read once, rules and modes
// from flags, asks denied with a reason the model can act on (nobody can answer a prompt here),
// every decision recorded in the transcript, and the session hooks run around each prompt.

import type { CompactOutcome } from "../loop/context-manager.js";
import type { QueryEvent, TerminalEvent } from "../loop/events.js";
import { runSessionStartHooks, submitWithHooks } from "../loop/session-hooks.js";
import type { AutoModeClassifier } from "../permissions/classifier/index.js";
import { createLazyClassifier, createModelClassifier } from "../permissions/classifier/index.js";
import {
  createCanUseTool,
  createHeadlessAskHandler,
  type PermissionDecisionRecord,
} from "../permissions/engine/index.js";
import { loadSessionPermissions, type SessionPermissions } from "../permissions/settings/index.js";
import type { AppState } from "../tool/app-state.js";
import type { CanUseTool } from "../tool/types.js";
import { defaultModelSpec, resolveModel } from "./model-choice.js";
import type { SessionConfig } from "./session-config.js";

const warn = (message: string) => void process.stderr.write(`warden: warning: ${message}\n`);

const setups = new WeakMap<SessionConfig, SessionPermissions>();
const recorders = new WeakMap<SessionConfig, (record: PermissionDecisionRecord) => void>();

/** Reads the settings of this session once (throws, with the file and problem, when it must not start). */
export function sessionPermissions(config: SessionConfig): SessionPermissions {
  let setup = setups.get(config);
  if (!setup) {
    setup = loadSessionPermissions({
      cwd: config.cwd,
      cli: {
        allowedTools: config.allowedTools,
        disallowedTools: config.disallowedTools,
        permissionMode: config.permissionMode,
        addDirs: config.addDirs,
        dangerouslySkipPermissions: config.dangerouslySkipPermissions,
      },
      extraSettings: config.settings !== undefined ? [config.settings] : [],
      trustProject: config.trustProject,
    });
    for (const warning of setup.warnings) warn(warning);
    if (setup.trustNotice) process.stderr.write(`warden: ${setup.trustNotice}\n`);
    setups.set(config, setup);
  }
  return setup;
}

export function buildHeadlessCanUseTool(config: SessionConfig): CanUseTool {
  return createCanUseTool({
    askHandler: createHeadlessAskHandler(),
    recordDecision: (record) => recorders.get(config)?.(record),
    onWarning: warn,
    classifier: autoModeClassifier(config),
  });
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
  recordEntry(entry: { type: string; [key: string]: unknown }): void;
  submitMessage(prompt: string): AsyncGenerator<QueryEvent, TerminalEvent>;
}

/**
 * Runs one prompt in a session under the engine: hooks and sandbox settings go into its AppState,
 * decisions into its transcript, SessionStart / UserPromptSubmit / Stop hooks around the prompt.
 */
export async function* runPromptWithPermissions(
  config: SessionConfig,
  session: PermissionAwareSession,
  prompt: string,
  resumed: boolean,
): AsyncGenerator<QueryEvent, TerminalEvent | undefined> {
  const setup = bindPermissions(config, session);
  await runSessionStartHooks(session, setup.hooks, resumed ? "resume" : "startup", warn);
  return yield* submitWithHooks(session, prompt, setup.hooks, warn);
}

/** `-p "/compact ..."`: the session's conversation summarised now, under the same settings and hooks. */
export async function* runCompactWithPermissions(
  config: SessionConfig,
  session: PermissionAwareSession & { compact(instructions?: string): AsyncGenerator<QueryEvent, CompactOutcome> },
  instructions: string | undefined,
): AsyncGenerator<QueryEvent, CompactOutcome> {
  bindPermissions(config, session);
  return yield* session.compact(instructions);
}

/** Hooks and sandbox settings into the session's AppState, decisions into its transcript. */
export function bindPermissions(config: SessionConfig, session: PermissionAwareSession): SessionPermissions {
  const setup = sessionPermissions(config);
  session.setAppState((prev) => ({ ...prev, ...setup.appState }));
  // The call's input is already in the transcript with its tool_use; the id links the two.
  recorders.set(config, (record) => session.recordEntry({ ...record, input: undefined }));
  setup.hooks?.bindSession({
    sessionId: session.sessionId,
    transcriptPath: session.transcriptPath,
    getPermissionMode: () => session.getAppState().toolPermissionContext.mode,
  });
  return setup;
}
