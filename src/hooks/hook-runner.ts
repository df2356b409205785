// A session's hooks: what the rest of Warden calls, one method per event. Running an event's hooks
// is hook-dispatch.ts; what each event sends and how its answers fold is in tool-call-events.ts,
// turn-events.ts, session-events.ts and agent-events.ts (each method here hands over to one).
import { HOOK_EVENTS, type HookEventName } from "../config/hook-events.js";
import { type HooksConfig, hooksSchema } from "../config/settings-schema.js";
import type { CompactHooks } from "../tool/compact-hooks.js";
import type { PostToolUseResult, PreToolUseResult, ToolCallHooks } from "../tool/tool-call-hooks.js";
import * as agentEvents from "./agent-events.js";
import type { HookRewake } from "./async-rewake.js";
import { HookDispatcher } from "./hook-dispatch.js";
import type { HookOutcomeEntry } from "./hook-output.js";
import type { CallbackHooks, HookCallbackRunner, HookLifecycleEvent } from "./hook-types.js";
import type { HookModels } from "./model-hook.js";
import * as modelSwitchEvents from "./model-switch-events.js";
import * as sessionEvents from "./session-events.js";
import * as toolEvents from "./tool-call-events.js";
import * as turnEvents from "./turn-events.js";

export type { ModelSwitchFacts, ModelSwitchSource, SkillShellCommand } from "../tool/tool-call-hooks.js";
export { DEFAULT_HOOK_TIMEOUT_MS, type HookRunnerOptions } from "./hook-dispatch.js";
export type { HookConditionCall } from "./hook-selection.js";
export { SESSION_END_TIMEOUT_MS, type SessionEndReason, type SetupTrigger } from "./session-events.js";
export type { NotificationType } from "./turn-events.js";
export type { PostToolUseResult, PreToolUseResult };

/** An event function's arguments after the dispatcher it runs on. */
type EventArgs<F> = F extends (hooks: HookDispatcher, ...rest: infer R) => unknown ? R : never;

export class HookRunner extends HookDispatcher implements ToolCallHooks, CompactHooks {
  /** Told when each command hook starts, writes output, and ends (--include-hook-events). */
  observe(observer: (event: HookLifecycleEvent) => void): void {
    this.listeners.observer = observer;
  }

  /** Adds the embedding program's hook functions; they run beside the command hooks of each event. */
  addCallbacks(hooks: CallbackHooks, run: HookCallbackRunner): void {
    this.listeners.callbacks = { hooks, run };
  }

  /** Hooks are configured before the session exists; the session tells them who it is. */
  bindSession(session: {
    sessionId: string;
    transcriptPath?: string;
    getPermissionMode?: () => string;
    recordEntry?: (entry: HookOutcomeEntry) => void;
  }): void {
    this.options.sessionId = session.sessionId;
    if (session.recordEntry) this.listeners.recordOutcomes = session.recordEntry;
    if (session.transcriptPath !== undefined) this.options.transcriptPath = session.transcriptPath;
    if (session.getPermissionMode) this.options.getPermissionMode = session.getPermissionMode;
  }

  /** What prompt and agent hooks ask: the session's provider and subagents (bound once it exists). */
  bindModels(models: HookModels): void {
    this.listeners.models = models;
  }

  /** Where a hook's `systemMessage` goes: the person's screen (a notice), as Claude Code shows it. */
  onSystemMessage(listener: (event: HookEventName, text: string) => void): void {
    this.listeners.systemMessage = listener;
  }

  /** Where the output of async hooks goes once they finish (the session's next turn). */
  onAsyncOutput(listener: (texts: string[], errors: string[]) => void): void {
    this.listeners.asyncOutput = listener;
  }

  /**
   * Where the watchPaths of SessionStart, CwdChanged and FileChanged hooks go (the FileChanged
   * watcher, which exists only when FileChanged hooks do); a CwdChanged also says the new folder.
   */
  onWatchPaths(listener: (paths: string[] | undefined, cwd?: string) => void): void {
    this.listeners.watchPaths = listener;
  }

  /** Told when an asyncRewake hook exits with code 2: what the model is woken with, and the person's notice. */
  onRewake(listener: (rewake: HookRewake) => void): void {
    this.listeners.rewake = listener;
  }

  /**
   * The session's hooks plus an agent's own, for that agent's run (the child's AppState): its
   * `Stop` hooks become SubagentStop, as Claude Code runs them. The agent's file was validated
   * when read; anything that does not parse now adds nothing.
   */
  forAgent(hooks: Readonly<Record<string, unknown>>): HookRunner {
    const parsed = hooksSchema.safeParse(hooks);
    if (!parsed.success) return this;
    const merged: HooksConfig = { ...this.options.config };
    for (const event of HOOK_EVENTS) {
      const matchers = (parsed.data as HooksConfig)[event];
      if (!matchers?.length) continue;
      const target: HookEventName = event === "Stop" ? "SubagentStop" : event;
      merged[target] = [...(merged[target] ?? []), ...matchers];
    }
    const child = new HookRunner({ ...this.options, config: merged });
    child.adoptListeners(this);
    return child;
  }

  // Tool calls.
  preToolUse(...args: EventArgs<typeof toolEvents.preToolUse>) {
    return toolEvents.preToolUse(this, ...args);
  }
  postToolUse(...args: EventArgs<typeof toolEvents.postToolUse>) {
    return toolEvents.postToolUse(this, ...args);
  }
  postToolBatch(...args: EventArgs<typeof toolEvents.postToolBatch>) {
    return toolEvents.postToolBatch(this, ...args);
  }
  permissionDenied(...args: EventArgs<typeof toolEvents.permissionDenied>) {
    return toolEvents.permissionDenied(this, ...args);
  }
  postToolUseFailure(...args: EventArgs<typeof toolEvents.postToolUseFailure>) {
    return toolEvents.postToolUseFailure(this, ...args);
  }
  permissionRequest(...args: EventArgs<typeof toolEvents.permissionRequest>) {
    return toolEvents.permissionRequest(this, ...args);
  }

  // Turns.
  userPromptSubmit(...args: EventArgs<typeof turnEvents.userPromptSubmit>) {
    return turnEvents.userPromptSubmit(this, ...args);
  }
  userPromptExpansion(...args: EventArgs<typeof turnEvents.userPromptExpansion>) {
    return turnEvents.userPromptExpansion(this, ...args);
  }
  stop(...args: EventArgs<typeof turnEvents.stop>) {
    return turnEvents.stop(this, ...args);
  }
  stopFailure(...args: EventArgs<typeof turnEvents.stopFailure>) {
    return turnEvents.stopFailure(this, ...args);
  }
  preCompact(...args: EventArgs<typeof turnEvents.preCompact>) {
    return turnEvents.preCompact(this, ...args);
  }
  postCompact(...args: EventArgs<typeof turnEvents.postCompact>) {
    return turnEvents.postCompact(this, ...args);
  }
  notification(...args: EventArgs<typeof turnEvents.notification>) {
    return turnEvents.notification(this, ...args);
  }
  messageDisplay(...args: EventArgs<typeof turnEvents.messageDisplay>) {
    return turnEvents.messageDisplay(this, ...args);
  }

  // The model switched, and a command's or skill's `!`command`` lines.
  preModelSwitch(...args: EventArgs<typeof modelSwitchEvents.preModelSwitch>) {
    return modelSwitchEvents.preModelSwitch(this, ...args);
  }
  postModelSwitch(...args: EventArgs<typeof modelSwitchEvents.postModelSwitch>) {
    return modelSwitchEvents.postModelSwitch(this, ...args);
  }
  preSkillShellCommand(...args: EventArgs<typeof modelSwitchEvents.preSkillShellCommand>) {
    return modelSwitchEvents.preSkillShellCommand(this, ...args);
  }

  // The session and its surroundings.
  setup(...args: EventArgs<typeof sessionEvents.setup>) {
    return sessionEvents.setup(this, ...args);
  }
  sessionStart(...args: EventArgs<typeof sessionEvents.sessionStart>) {
    return sessionEvents.sessionStart(this, ...args);
  }
  sessionEnd(...args: EventArgs<typeof sessionEvents.sessionEnd>) {
    return sessionEvents.sessionEnd(this, ...args);
  }
  cwdChanged(...args: EventArgs<typeof sessionEvents.cwdChanged>) {
    return sessionEvents.cwdChanged(this, ...args);
  }
  fileChanged(...args: EventArgs<typeof sessionEvents.fileChanged>) {
    return sessionEvents.fileChanged(this, ...args);
  }
  directoryAdded(...args: EventArgs<typeof sessionEvents.directoryAdded>) {
    return sessionEvents.directoryAdded(this, ...args);
  }
  configChange(...args: EventArgs<typeof sessionEvents.configChange>) {
    return sessionEvents.configChange(this, ...args);
  }
  instructionsLoaded(...args: EventArgs<typeof sessionEvents.instructionsLoaded>) {
    return sessionEvents.instructionsLoaded(this, ...args);
  }

  // Agents, teammates, tasks, worktrees and MCP servers' questions.
  subagentStart(...args: EventArgs<typeof agentEvents.subagentStart>) {
    return agentEvents.subagentStart(this, ...args);
  }
  subagentStop(...args: EventArgs<typeof agentEvents.subagentStop>) {
    return agentEvents.subagentStop(this, ...args);
  }
  teammateIdle(...args: EventArgs<typeof agentEvents.teammateIdle>) {
    return agentEvents.teammateIdle(this, ...args);
  }
  taskEvent(...args: EventArgs<typeof agentEvents.taskEvent>) {
    return agentEvents.taskEvent(this, ...args);
  }
  worktreeCreate(...args: EventArgs<typeof agentEvents.worktreeCreate>) {
    return agentEvents.worktreeCreate(this, ...args);
  }
  worktreeRemove(...args: EventArgs<typeof agentEvents.worktreeRemove>) {
    return agentEvents.worktreeRemove(this, ...args);
  }
  elicitation(...args: EventArgs<typeof agentEvents.elicitation>) {
    return agentEvents.elicitation(this, ...args);
  }
  elicitationResult(...args: EventArgs<typeof agentEvents.elicitationResult>) {
    return agentEvents.elicitationResult(this, ...args);
  }
}
