// What a front end may change in a running session, each change in one place. The interactive
// UI, the SDK's control protocol (and the library's query(), which speaks it in memory), ACP and
// the session inbox call these and never write the session's AppState themselves: a permission
// mode switched from any of them gets the same checks (a known mode, bypassPermissions only when
// it was made available) and the same plan-mode bookkeeping (the mode to return to, the plan file).
// What a front end leaves for the model (a message, a reminder, a Ctrl+B before a command started)
// goes on the session's channels (src/tool/session-channels.ts), never into AppState.
import { sessionArtifactsDir } from "../config/paths.js";
import type { SessionEngine } from "../loop/session.js";
import type { UserMessage } from "../messages/types.js";
import { applyPermissionUpdate, permissionModeProblem, withPermissionMode } from "../permissions/settings/index.js";
import type { AppState } from "../tool/app-state.js";
import type { PermissionMode, PermissionUpdate, ToolPermissionContext } from "../tool/permission-types.js";
import type { DirectoryAddedSource, ModelSwitchSource } from "../tool/tool-call-hooks.js";
import { modelSwitchFacts } from "./model-switch-facts.js";

/** A model switch a PreModelSwitch hook refused (the model unchanged); the message says why. */
export class ModelSwitchRefusedError extends Error {
  override name = "ModelSwitchRefusedError";
}

/** A mode switch refused: not a mode, or bypassPermissions when the session may not use it. */
export class PermissionModeError extends Error {
  override name = "PermissionModeError";
}

/** A model's id, price and limits, as the session holds them (the models layer is not control's to import). */
export type ModelInfo = SessionEngine["modelInfo"];

/** What the commands need of the session: the engine's state, its running prompt, its agents. */
export type CommandedSession = Pick<
  SessionEngine,
  "sessionId" | "cwd" | "getAppState" | "setAppState" | "channels" | "abort" | "stopAgents" | "modelInfo" | "messages"
>;

/**
 * Resolves a model name (undefined or "default": the session's own model) and returns the model it
 * names and the switch, so a caller can check everything else before anything changes. Given by
 * whoever knows the session's providers (the CLI's builder); a name that does not resolve throws.
 */
export type ModelSwitch = (name: string | undefined) => Promise<{ to: ModelInfo; apply: () => void }>;

/** What a switch's PostModelSwitch hooks said that went wrong (the switch itself is done). */
export interface ModelSwitched {
  errors: string[];
}

export interface SessionCommands {
  /**
   * Switches the permission mode (PermissionModeError when `mode` is refused, nothing changed).
   * Entering plan mode remembers the mode to come back to and names the plan file; leaving it
   * forgets that. Returns the mode the session is in afterwards.
   */
  setPermissionMode(mode: string): PermissionMode;
  /**
   * Replaces the permission context through `change` (rules, folders, a mode): a mode it changes
   * goes through setPermissionMode's checks and bookkeeping, so no path switches modes around them.
   * Throws PermissionModeError (nothing changed) when that switch is refused.
   */
  updatePermissions(change: (context: ToolPermissionContext) => ToolPermissionContext): void;
  /** Applies one permission update (rules, folders, mode) to the session; saving it is the caller's. */
  applyPermissionUpdate(update: PermissionUpdate): void;
  /**
   * Adds a working folder mid-session (`/add-dir`, the SDK's register_repo_root) and then tells
   * the DirectoryAdded hooks; their failures are returned (nothing they say undoes the folder).
   */
  addWorkingDirectory(
    directory: string,
    source: DirectoryAddedSource,
    destination?: "session" | "localSettings",
  ): Promise<{ errors: string[] }>;
  /**
   * Switches the model requests go to from the next one (see ModelSwitch). PreModelSwitch hooks run
   * first and may refuse (ModelSwitchRefusedError, nothing changed); PostModelSwitch hooks run after,
   * their additionalContext left for the model's next request; their failures are returned.
   */
  setModel(name: string | undefined, source?: ModelSwitchSource): Promise<ModelSwitched>;
  /**
   * Resolves the model and asks the PreModelSwitch hooks now; returns the switch, to be called once
   * everything else has passed (it then tells the PostModelSwitch hooks).
   */
  prepareModel(name: string | undefined, source?: ModelSwitchSource): Promise<() => Promise<ModelSwitched>>;
  /** Stops the running prompt; every tool call still gets its result. */
  interrupt(reason?: unknown): void;
  /** A user message taken into the conversation when the next prompt starts (or the running one's next request). */
  queueMessage(message: UserMessage): void;
  /** A reminder for the model at its next request, and a turn for it when the session is idle. */
  remind(text: string): void;
  /** The Bash calls (by tool_use id) whose command goes to the background as soon as it starts. */
  backgroundWhenStarted(toolUseIds: readonly string[]): void;
  /** Teammates and background agents stopped, their ends recorded. */
  stopAgents(): Promise<void>;
}

export interface SessionCommandsOptions {
  /** How setModel resolves and switches; without it setModel refuses. */
  switchModel?: ModelSwitch;
}

export function createSessionCommands(
  session: CommandedSession,
  options: SessionCommandsOptions = {},
): SessionCommands {
  const planDir = () => sessionArtifactsDir(session.cwd, session.sessionId);
  /** The state in `mode`, or PermissionModeError. */
  const switched = (state: AppState, mode: string): AppState => {
    const problem = permissionModeProblem(state.toolPermissionContext, mode);
    if (problem) throw new PermissionModeError(problem);
    return withPermissionMode(state, mode as PermissionMode, planDir());
  };
  // setAppState's updater runs synchronously: a refusal thrown inside leaves the state as it was.
  const update = (change: (state: AppState) => AppState) => session.setAppState(change);
  const updatePermissions = (change: (context: ToolPermissionContext) => ToolPermissionContext) =>
    update((state) => {
      const before = state.toolPermissionContext;
      const next = change(before);
      if (next.mode === before.mode) return { ...state, toolPermissionContext: next };
      return switched({ ...state, toolPermissionContext: { ...next, mode: before.mode } }, next.mode);
    });
  const prepareModel = async (name: string | undefined, source: ModelSwitchSource = "sdk") => {
    if (!options.switchModel) throw new Error("this session cannot switch its model");
    const { to, apply } = await options.switchModel(name);
    const facts = modelSwitchFacts(session.modelInfo, to, name, source, session.messages);
    const hooks = session.getAppState().hooks;
    const before = hooks?.has("PreModelSwitch") ? await hooks.preModelSwitch(facts) : { errors: [] };
    if (before.denied !== undefined) {
      throw new ModelSwitchRefusedError(`the model was not switched to ${to.model}: ${before.denied}`);
    }
    return async (): Promise<ModelSwitched> => {
      apply();
      if (!hooks?.has("PostModelSwitch")) return { errors: before.errors };
      const after = await hooks.postModelSwitch(facts);
      // For the next request, which the new model serves; a switch alone does not start a turn.
      for (const text of after.additionalContext) session.channels.reminders.send(text);
      return { errors: [...before.errors, ...after.errors] };
    };
  };
  // Model switches one at a time, in the order asked: two set_model requests sent together ran their
  // hooks side by side, and the one whose hooks ended last was the model, whatever the order asked.
  let lastSwitch: Promise<unknown> = Promise.resolve();
  return {
    setPermissionMode(mode) {
      update((state) => switched(state, mode));
      return session.getAppState().toolPermissionContext.mode;
    },
    updatePermissions,
    applyPermissionUpdate(permissionUpdate) {
      // A mode is switched with its checks and bookkeeping (applyPermissionUpdate alone would set
      // plan mode without the mode to return to, and keep the mode silently when bypass is off).
      if (permissionUpdate.type === "setMode") update((state) => switched(state, permissionUpdate.mode));
      else updatePermissions((context) => applyPermissionUpdate(context, permissionUpdate, session.cwd));
    },
    async addWorkingDirectory(directory, source, destination = "session") {
      updatePermissions((context) =>
        applyPermissionUpdate(context, { type: "addDirectories", directories: [directory], destination }, session.cwd),
      );
      const hooks = session.getAppState().hooks;
      if (!hooks?.has("DirectoryAdded")) return { errors: [] };
      return hooks.directoryAdded(directory, source);
    },
    setModel(name, source) {
      const switching = lastSwitch.then(async () => (await prepareModel(name, source))());
      lastSwitch = switching.catch(() => undefined);
      return switching;
    },
    prepareModel,
    interrupt(reason = "user") {
      session.abort(reason);
    },
    queueMessage(message) {
      session.channels.userMessages.send(message);
    },
    remind(text) {
      session.channels.reminders.send(text);
      session.channels.wake.raise();
    },
    backgroundWhenStarted(toolUseIds) {
      session.channels.backgroundWhenStarted.send(...toolUseIds);
    },
    stopAgents: () => session.stopAgents(),
  };
}
