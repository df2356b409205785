// Running the hooks of one event: the input every hook gets (the session's fields and the event's
// own), each selected hook by its type (command, http, prompt, agent, the embedding program's
// callbacks), async commands in the background, and the outcomes written to the transcript. The
// events themselves (what each sends and how its answers fold) are in the *-events.ts files.
import type { HookEventName } from "../config/hook-events.js";
import type { HookCommandConfig, HookConfig, HooksConfig } from "../config/settings-schema.js";
import type { HookRewake } from "./async-rewake.js";
import { runBackgroundHook } from "./background-hook.js";
import { runCallbackHook } from "./callback-hook.js";
import { type HookOutcome, type HookOutcomeEntry, hookOutcomeEntry, interpretHookResult } from "./hook-output.js";
import { type HookConditionTest, selectHooks } from "./hook-selection.js";
import type { CallbackHooks, HookCallbackRunner, HookLifecycleEvent } from "./hook-types.js";
import { runHttpHook } from "./http-hook.js";
import { type HookModels, MODEL_HOOK_TIMEOUT_S, runModelHook } from "./model-hook.js";
import { runObservedCommand } from "./observed-command.js";

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

export interface HookRunnerOptions {
  config: HooksConfig;
  cwd: string;
  sessionId: string;
  transcriptPath?: string;
  getPermissionMode?: () => string;
  defaultTimeoutMs?: number;
  /** Variables added to every hook command's environment (settings `env` from trusted sources). */
  env?: Readonly<Record<string, string>>;
  /** Whether a hook's `if` (permission-rule syntax) matches a tool call (src/permissions/rules/hook-condition.ts). */
  conditionHolds?: HookConditionTest;
}

/** Who hears what hooks do besides the event that ran them; shared by a session's runner and its agents'. */
interface HookListeners {
  callbacks?: { hooks: CallbackHooks; run: HookCallbackRunner };
  models?: HookModels;
  /** Told when each command hook starts, writes output, and ends (--include-hook-events). */
  observer?: (event: HookLifecycleEvent) => void;
  /** Told what an async hook said once it finished (its additionalContext or systemMessage), for the next turn. */
  asyncOutput?: (texts: string[], errors: string[]) => void;
  rewake?: (rewake: HookRewake) => void;
  /** Told the files a hook asks FileChanged hooks to watch (watchPaths), and the shell's new folder. */
  watchPaths?: (paths: string[] | undefined, cwd?: string) => void;
  /** Where each event's outcomes are written (the session's transcript), once a session exists. */
  recordOutcomes?: (entry: HookOutcomeEntry) => void;
  /** Told each `systemMessage` a hook answered: a warning for the person, never for the model. */
  systemMessage?: (event: HookEventName, text: string) => void;
}

export class HookDispatcher {
  protected listeners: HookListeners = {};
  private readonly background = new Set<Promise<void>>();

  constructor(protected readonly options: HookRunnerOptions) {}

  /** The environment hook commands run with, and that CLAUDE_ENV_FILE's lines are expanded in. */
  get baseEnv(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.options.env };
  }

  /**
   * Another dispatcher's listeners as they are now, for a runner made from it (an agent's hooks);
   * not its transcript: the agent's hook outcomes are not written to the session's.
   */
  protected adoptListeners(from: HookDispatcher): void {
    const { recordOutcomes: _notShared, ...shared } = from.listeners;
    this.listeners = shared;
  }

  /** Where the watchPaths of SessionStart, CwdChanged and FileChanged hooks go (see HookRunner.onWatchPaths). */
  announceWatchPaths(paths: string[] | undefined, cwd?: string): void {
    this.listeners.watchPaths?.(paths, cwd);
  }

  /** Resolves once every async hook started so far has finished. */
  async backgroundSettled(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /** The matchers of an event's hooks, settings' and the embedding program's (FileChanged watches what they name). */
  matchersOf(event: HookEventName): Array<string | undefined> {
    return [
      ...(this.options.config[event] ?? []).map((m) => m.matcher),
      ...(this.listeners.callbacks?.hooks[event] ?? []).map((m) => m.matcher),
    ];
  }

  has(event: HookEventName): boolean {
    return (this.options.config[event]?.length ?? 0) > 0 || (this.listeners.callbacks?.hooks[event]?.length ?? 0) > 0;
  }

  /**
   * Runs the event's hooks that apply (`matchValue`: what their matchers are tested against;
   * undefined runs them all) and returns what each answered; async commands answer later.
   */
  async run(
    event: HookEventName,
    matchValue: string | undefined,
    payload: Record<string, unknown>,
    signal?: AbortSignal,
    /** Variables for this event's command hooks only (CLAUDE_ENV_FILE for SessionStart). */
    extraEnv: Readonly<Record<string, string>> = {},
  ): Promise<HookOutcome[]> {
    const callbacks = this.listeners.callbacks;
    const selected = selectHooks(event, matchValue, payload, {
      config: this.options.config,
      ...(callbacks && { callbacks: callbacks.hooks }),
      ...(this.options.conditionHolds && { conditionHolds: this.options.conditionHolds }),
      cwd: this.options.cwd,
    });
    if (selected.commands.length === 0 && selected.callbacks.length === 0) return [];
    const input = {
      session_id: this.options.sessionId,
      transcript_path: this.options.transcriptPath ?? "",
      cwd: this.options.cwd,
      hook_event_name: event,
      permission_mode: this.options.getPermissionMode?.(),
      ...payload,
    };
    const env = { ...this.baseEnv, WARDEN_PROJECT_DIR: this.options.cwd, CLAUDE_PROJECT_DIR: this.options.cwd };
    const fromCallbacks = selected.callbacks.map(async ({ id, timeout }) => {
      const timeoutMs =
        timeout !== undefined ? timeout * 1000 : (this.options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
      const toolUseId = typeof payload.tool_use_id === "string" ? payload.tool_use_id : undefined;
      return interpretHookResult(
        `callback ${id}`,
        await runCallbackHook(callbacks?.run, id, input, toolUseId, timeoutMs, signal),
        timeoutMs,
      );
    });
    const hookName = matchValue ? `${event}:${matchValue}` : event;
    const fromHooks = Promise.all(
      selected.commands.map((hook) => this.runOne(hook, event, hookName, input, env, extraEnv, signal)),
    );
    const ran = (await fromHooks).filter((outcome): outcome is HookOutcome => outcome !== undefined);
    const outcomes = [...ran, ...(await Promise.all(fromCallbacks))];
    this.listeners.recordOutcomes?.(hookOutcomeEntry(event, matchValue, payload, outcomes));
    for (const outcome of outcomes) {
      const text = outcome.kind === "success" ? outcome.json?.systemMessage : undefined;
      if (text) this.listeners.systemMessage?.(event, text);
    }
    return outcomes;
  }

  private timeoutOf(hook: HookConfig): number {
    if (hook.timeout !== undefined) return hook.timeout * 1000;
    if (hook.type === "prompt" || hook.type === "agent") return MODEL_HOOK_TIMEOUT_S[hook.type] * 1000;
    return this.options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  }

  /** One configured hook, by its type; undefined for an async command (it answers later, if at all). */
  private async runOne(
    hook: HookConfig,
    event: HookEventName,
    hookName: string,
    input: Record<string, unknown>,
    env: NodeJS.ProcessEnv,
    /** Only command hooks get these (an http hook's headers cannot name CLAUDE_ENV_FILE). */
    extraEnv: Readonly<Record<string, string>>,
    signal: AbortSignal | undefined,
  ): Promise<HookOutcome | undefined> {
    const timeoutMs = this.timeoutOf(hook);
    switch (hook.type) {
      case "http":
        return runHttpHook(hook, input, { timeoutMs, env, signal });
      case "prompt":
      case "agent":
        return runModelHook(hook, input, this.listeners.models, { timeoutMs, signal });
      case "command":
        if (hook.async || hook.asyncRewake) {
          this.runInBackground(hook, input, { ...env, ...extraEnv }, timeoutMs);
          return undefined;
        }
        return runObservedCommand(hook, input, {
          cwd: this.options.cwd,
          env: { ...env, ...extraEnv },
          timeoutMs,
          signal,
          observer: this.listeners.observer,
          hookName,
          event,
        });
    }
  }

  /**
   * An async command hook: the event goes on without it, and it cannot block anything. What it
   * says when it ends (additionalContext, systemMessage) reaches the session's next turn.
   */
  private runInBackground(
    hook: HookCommandConfig,
    input: Record<string, unknown>,
    env: NodeJS.ProcessEnv,
    timeoutMs: number,
  ): void {
    const done = runBackgroundHook(hook, input, {
      cwd: this.options.cwd,
      env,
      timeoutMs,
      onOutput: (texts, errors) => this.listeners.asyncOutput?.(texts, errors),
      onRewake: (rewake) => this.listeners.rewake?.(rewake),
    });
    const tracked = done.finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }
}
