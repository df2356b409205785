import {
  HOOK_EVENTS,
  type HookCommandConfig,
  type HookConfig,
  type HookEventName,
  type HookMatcherConfig,
  type HooksConfig,
  hooksSchema,
} from "../config/settings-schema.js";
import type { CompactHooks, CompactTrigger, PreCompactResult } from "../tool/compact-hooks.js";
import type {
  DirectoryAddedSource,
  InstructionsLoadedInput,
  PostToolBatchResult,
  PostToolUseFailureResult,
  PostToolUseResult,
  PreToolUseResult,
  PromptExpansion,
  PromptExpansionResult,
  SubagentStopResult,
  ToolBatchCall,
  ToolCallHooks,
} from "../tool/tool-call-hooks.js";
import type { ToolInput } from "../tool/types.js";
import type { HookRewake } from "./async-rewake.js";
import { runBackgroundHook } from "./background-hook.js";
import { foldPermissionDenied, foldPostToolBatch } from "./batch-and-denial.js";
import { runCallbackHook } from "./callback-hook.js";
import {
  type ElicitationAnswer,
  type ElicitationQuestion,
  type ElicitationReply,
  elicitationInput,
  foldElicitation,
  resultInput,
} from "./elicitation-hooks.js";
import { createHookEnvFile } from "./env-file.js";
import { fileMatcherAccepts } from "./file-matcher.js";
import { foldContextOutcomes, foldStopOutcomes, watchPathsOf } from "./hook-folds.js";
import { matcherAccepts } from "./hook-matchers.js";
import { type HookOutcome, type HookOutcomeEntry, hookOutcomeEntry, interpretHookResult } from "./hook-output.js";
import type {
  CallbackHooks,
  HookCallbackRunner,
  HookLifecycleEvent,
  SessionStartResult,
  StopResult,
  UserPromptSubmitResult,
} from "./hook-types.js";
import { runHttpHook } from "./http-hook.js";
import { type HookModels, MODEL_HOOK_TIMEOUT_S, runModelHook } from "./model-hook.js";
import { runObservedCommand } from "./observed-command.js";
import { foldPermissionRequestOutcomes, type PermissionRequestResult } from "./permission-request.js";
import { HOOK_VERIFIER_AGENT } from "./session-hook-models.js";
import { type StopFailureKind, stopFailureKind } from "./stop-failure.js";
import { foldPostToolUse, foldPreToolUse } from "./tool-event-folds.js";
import { foldWorktreeCreate } from "./worktree-hooks.js";

export type { PostToolUseResult, PreToolUseResult };

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/**
 * SessionEnd hooks hold up the exit: past this (or WARDEN_SESSIONEND_HOOKS_TIMEOUT_MS) they are
 * killed, whatever their own timeout says (Claude Code bounds them the same way).
 */
export const SESSION_END_TIMEOUT_MS = 1_500;

export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";
export type NotificationType = "permission_prompt" | "idle_prompt";

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
  conditionHolds?: (condition: string, call: HookConditionCall, cwd: string) => boolean;
}

/** The tool call a hook's `if` is tested against. */
export interface HookConditionCall {
  toolName: string;
  toolInput: Record<string, unknown>;
}

/** The events whose hooks see one tool call, so an `if` can be tested. */
const CONDITION_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
]);

export class HookRunner implements ToolCallHooks, CompactHooks {
  private callbacks: { hooks: CallbackHooks; run: HookCallbackRunner } | undefined;
  private models: HookModels | undefined;
  /** Told what an async hook said once it finished (its additionalContext or systemMessage), for the next turn. */
  private asyncListener: ((texts: string[], errors: string[]) => void) | undefined;
  private readonly background = new Set<Promise<void>>();
  private rewakeListener: ((rewake: HookRewake) => void) | undefined;
  /** Told the files a hook asks FileChanged hooks to watch (watchPaths), and the shell's new folder. */
  private watchPathsListener: ((paths: string[] | undefined, cwd?: string) => void) | undefined;

  constructor(private readonly options: HookRunnerOptions) {}

  /** Adds the embedding program's hook functions; they run beside the command hooks of each event. */
  private observer: ((event: HookLifecycleEvent) => void) | undefined;

  /** Told when each command hook starts, writes output, and ends (--include-hook-events). */
  observe(observer: (event: HookLifecycleEvent) => void): void {
    this.observer = observer;
  }

  addCallbacks(hooks: CallbackHooks, run: HookCallbackRunner): void {
    this.callbacks = { hooks, run };
  }

  /** Where each event's outcomes are written (the session's transcript), once a session exists. */
  private recordOutcomes: ((entry: HookOutcomeEntry) => void) | undefined;

  /** Hooks are configured before the session exists; the session tells them who it is. */
  bindSession(session: {
    sessionId: string;
    transcriptPath?: string;
    getPermissionMode?: () => string;
    recordEntry?: (entry: HookOutcomeEntry) => void;
  }): void {
    this.options.sessionId = session.sessionId;
    if (session.recordEntry) this.recordOutcomes = session.recordEntry;
    if (session.transcriptPath !== undefined) this.options.transcriptPath = session.transcriptPath;
    if (session.getPermissionMode) this.options.getPermissionMode = session.getPermissionMode;
  }

  /** What prompt and agent hooks ask: the session's provider and subagents (bound once it exists). */
  bindModels(models: HookModels): void {
    this.models = models;
  }

  /** Where the output of async hooks goes once they finish (the session's next turn). */
  onAsyncOutput(listener: (texts: string[], errors: string[]) => void): void {
    this.asyncListener = listener;
  }

  /**
   * Where the watchPaths of SessionStart, CwdChanged and FileChanged hooks go (the FileChanged
   * watcher, which exists only when FileChanged hooks do); a CwdChanged also says the new folder.
   */
  onWatchPaths(listener: (paths: string[] | undefined, cwd?: string) => void): void {
    this.watchPathsListener = listener;
  }

  /** Told when an asyncRewake hook exits with code 2: what the model is woken with, and the person's notice. */
  onRewake(listener: (rewake: HookRewake) => void): void {
    this.rewakeListener = listener;
  }

  /** Resolves once every async hook started so far has finished. */
  async backgroundSettled(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
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
    child.callbacks = this.callbacks;
    child.models = this.models;
    child.observer = this.observer;
    child.asyncListener = this.asyncListener;
    child.rewakeListener = this.rewakeListener;
    child.watchPathsListener = this.watchPathsListener;
    return child;
  }

  /** The matchers of an event's hooks, settings' and the embedding program's (FileChanged watches what they name). */
  matchersOf(event: HookEventName): Array<string | undefined> {
    return [
      ...(this.options.config[event] ?? []).map((m) => m.matcher),
      ...(this.callbacks?.hooks[event] ?? []).map((m) => m.matcher),
    ];
  }

  has(event: HookEventName): boolean {
    return (this.options.config[event]?.length ?? 0) > 0 || (this.callbacks?.hooks[event]?.length ?? 0) > 0;
  }

  private async run(
    event: HookEventName,
    toolName: string | undefined,
    payload: Record<string, unknown>,
    signal?: AbortSignal,
    /** Variables for this event's command hooks only (CLAUDE_ENV_FILE for SessionStart). */
    extraEnv: Readonly<Record<string, string>> = {},
  ): Promise<HookOutcome[]> {
    const matchers: HookMatcherConfig[] = this.options.config[event] ?? [];
    // FileChanged matchers name files (`.envrc|.env`, `*.json`), not tools: no regular expressions.
    const accepts = (matcher: string | undefined) =>
      toolName === undefined ||
      (event === "FileChanged" ? fileMatcherAccepts(matcher, toolName) : matcherAccepts(matcher, toolName));
    const call =
      toolName !== undefined && typeof payload.tool_input === "object" && payload.tool_input !== null
        ? { toolName, toolInput: payload.tool_input as Record<string, unknown> }
        : undefined;
    const commands = matchers
      .filter((m) => accepts(m.matcher))
      .flatMap((m) => m.hooks)
      .filter((hook) => hook.if === undefined || this.conditionHolds(hook.if, event, call));
    const callbackIds = (this.callbacks?.hooks[event] ?? [])
      .filter((m) => accepts(m.matcher))
      .flatMap((m) => m.callbackIds.map((id) => ({ id, timeout: m.timeout })));
    if (commands.length === 0 && callbackIds.length === 0) return [];
    const input = {
      session_id: this.options.sessionId,
      transcript_path: this.options.transcriptPath ?? "",
      cwd: this.options.cwd,
      hook_event_name: event,
      permission_mode: this.options.getPermissionMode?.(),
      ...payload,
    };
    const env = {
      ...process.env,
      ...this.options.env,
      WARDEN_PROJECT_DIR: this.options.cwd,
      CLAUDE_PROJECT_DIR: this.options.cwd,
    };
    const fromCallbacks = callbackIds.map(async ({ id, timeout }) => {
      const timeoutMs =
        timeout !== undefined ? timeout * 1000 : (this.options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
      const toolUseId = typeof payload.tool_use_id === "string" ? payload.tool_use_id : undefined;
      return interpretHookResult(
        `callback ${id}`,
        await runCallbackHook(this.callbacks?.run, id, input, toolUseId, timeoutMs, signal),
        timeoutMs,
      );
    });
    const fromHooks = Promise.all(
      commands.map((hook) => this.runOne(hook, event, toolName, input, env, signal, extraEnv)),
    );
    const ran = (await fromHooks).filter((outcome): outcome is HookOutcome => outcome !== undefined);
    const outcomes = [...ran, ...(await Promise.all(fromCallbacks))];
    this.recordOutcomes?.(hookOutcomeEntry(event, toolName, payload, outcomes));
    return outcomes;
  }

  /**
   * A hook's `if`: only tool events have a call to test (elsewhere such a hook never runs); the
   * test itself is the permission rules' (options.conditionHolds). Without it the hook runs: a
   * guard that runs once too often costs a process, one that stays quiet costs its check.
   */
  private conditionHolds(condition: string, event: HookEventName, call: HookConditionCall | undefined): boolean {
    if (!CONDITION_EVENTS.has(event) || !call) return false;
    return this.options.conditionHolds?.(condition, call, this.options.cwd) ?? true;
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
    toolName: string | undefined,
    input: Record<string, unknown>,
    env: NodeJS.ProcessEnv,
    signal: AbortSignal | undefined,
    extraEnv: Readonly<Record<string, string>>,
  ): Promise<HookOutcome | undefined> {
    const timeoutMs = this.timeoutOf(hook);
    switch (hook.type) {
      case "http":
        return runHttpHook(hook, input, { timeoutMs, env, signal });
      case "prompt":
      case "agent":
        return runModelHook(hook, input, this.models, { timeoutMs, signal });
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
          observer: this.observer,
          hookName: toolName ? `${event}:${toolName}` : event,
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
      onOutput: (texts, errors) => this.asyncListener?.(texts, errors),
      onRewake: (rewake) => this.rewakeListener?.(rewake),
    });
    const tracked = done.finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  async preToolUse(
    toolName: string,
    toolInput: ToolInput,
    toolUseId: string,
    signal?: AbortSignal,
  ): Promise<PreToolUseResult> {
    const outcomes = await this.run(
      "PreToolUse",
      toolName,
      { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId },
      signal,
    );
    return foldPreToolUse(outcomes);
  }

  async postToolUse(
    toolName: string,
    toolInput: ToolInput,
    toolResponse: unknown,
    toolUseId: string,
    signal?: AbortSignal,
  ): Promise<PostToolUseResult> {
    const outcomes = await this.run(
      "PostToolUse",
      toolName,
      { tool_name: toolName, tool_input: toolInput, tool_response: toolResponse, tool_use_id: toolUseId },
      signal,
    );
    return foldPostToolUse(outcomes);
  }

  async postToolBatch(calls: readonly ToolBatchCall[], signal?: AbortSignal): Promise<PostToolBatchResult> {
    return foldPostToolBatch(await this.run("PostToolBatch", undefined, { tool_calls: calls }, signal));
  }

  async permissionDenied(
    call: { toolName: string; toolInput: ToolInput; toolUseId: string; reason: string },
    signal?: AbortSignal,
  ): Promise<{ retry: boolean; errors: string[] }> {
    const payload = {
      tool_name: call.toolName,
      tool_input: call.toolInput,
      tool_use_id: call.toolUseId,
      reason: call.reason,
    };
    return foldPermissionDenied(await this.run("PermissionDenied", call.toolName, payload, signal));
  }

  async userPromptSubmit(prompt: string, signal?: AbortSignal): Promise<UserPromptSubmitResult> {
    const outcomes = await this.run("UserPromptSubmit", undefined, { prompt }, signal);
    const { context, errors, blocked } = foldContextOutcomes(outcomes, "blocked by a UserPromptSubmit hook");
    return { additionalContext: context, errors, ...(blocked !== undefined && { blocked }) };
  }

  /** A typed `/name args` is expanded into a command's or skill's text (no matcher); may block it. */
  async userPromptExpansion(expansion: PromptExpansion, signal?: AbortSignal): Promise<PromptExpansionResult> {
    const outcomes = await this.run(
      "UserPromptExpansion",
      undefined,
      { expansion_type: "slash_command", ...expansion },
      signal,
    );
    const { context, errors, blocked } = foldContextOutcomes(outcomes, "blocked by a UserPromptExpansion hook");
    return { additionalContext: context, errors, ...(blocked !== undefined && { blocked }) };
  }

  /** `stopHookActive`: the model is already continuing because of a Stop hook (lets hooks avoid loops). */
  async stop(stopHookActive: boolean, signal?: AbortSignal): Promise<StopResult> {
    const outcomes = await this.run("Stop", undefined, { stop_hook_active: stopHookActive }, signal);
    return foldStopOutcomes(outcomes, "a Stop hook asked to continue");
  }

  /**
   * Before a compaction (matcher: `manual` or `auto`). A hook's plain stdout or additionalContext
   * becomes an instruction for the summary; exit code 2, `decision: "block"` or `continue: false`
   * refuses the compaction; a hook that fails is reported and the compaction goes on (it guards
   * nothing the user could lose).
   */
  async preCompact(
    trigger: CompactTrigger,
    customInstructions: string | undefined,
    signal?: AbortSignal,
  ): Promise<PreCompactResult> {
    const outcomes = await this.run(
      "PreCompact",
      trigger,
      { trigger, custom_instructions: customInstructions ?? null },
      signal,
    );
    const { context, errors, blocked } = foldContextOutcomes(outcomes, "a PreCompact hook refused the compaction");
    return { instructions: context, errors, ...(blocked !== undefined && { blocked }) };
  }

  /** After a compaction, with the summary the model wrote (matcher: `manual` or `auto`). */
  async postCompact(trigger: CompactTrigger, summary: string, signal?: AbortSignal): Promise<{ errors: string[] }> {
    const outcomes = await this.run("PostCompact", trigger, { trigger, compact_summary: summary }, signal);
    return { errors: outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : [])) };
  }

  /**
   * The session starts (matcher: the source). Plain stdout or additionalContext reaches the model;
   * what the hooks write to CLAUDE_ENV_FILE becomes environment for the session's Bash commands.
   */
  async sessionStart(
    source: "startup" | "resume" | "clear" | "compact",
    signal?: AbortSignal,
    model?: string,
  ): Promise<SessionStartResult> {
    const envFile = createHookEnvFile();
    const outcomes = await this.run("SessionStart", source, { source, ...(model !== undefined && { model }) }, signal, {
      CLAUDE_ENV_FILE: envFile.path,
    });
    const result: SessionStartResult = { additionalContext: [], errors: [] };
    const watchPaths = watchPathsOf(outcomes);
    if (watchPaths) this.watchPathsListener?.(watchPaths);
    for (const outcome of outcomes) {
      if (outcome.kind === "failed") result.errors.push(outcome.message);
      else if (outcome.kind === "blocking") result.errors.push(`SessionStart hook: ${outcome.message}`);
      else if (outcome.json?.hookSpecificOutput?.additionalContext) {
        result.additionalContext.push(outcome.json.hookSpecificOutput.additionalContext);
      } else if (outcome.text) {
        result.additionalContext.push(outcome.text);
      }
    }
    try {
      const env = await envFile.collect({ ...process.env, ...this.options.env });
      if (Object.keys(env).length > 0) result.env = env;
    } catch (error) {
      result.errors.push(
        `CLAUDE_ENV_FILE could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return result;
  }

  /** A tool call that ended in an error; additionalContext reaches the model, nothing can be undone. */
  async postToolUseFailure(
    toolName: string,
    toolInput: ToolInput,
    toolUseId: string,
    error: string,
    signal?: AbortSignal,
  ): Promise<PostToolUseFailureResult> {
    const outcomes = await this.run(
      "PostToolUseFailure",
      toolName,
      { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId, error, is_interrupt: false },
      signal,
    );
    const { context, errors } = foldContextOutcomes(outcomes, "");
    return { additionalContext: context, errors };
  }

  async subagentStart(
    agent: { agentId: string; agentType: string },
    signal?: AbortSignal,
  ): Promise<{ additionalContext: string[]; errors: string[] }> {
    if (agent.agentType === HOOK_VERIFIER_AGENT) return { additionalContext: [], errors: [] };
    const outcomes = await this.run(
      "SubagentStart",
      agent.agentType,
      { agent_id: agent.agentId, agent_type: agent.agentType },
      signal,
    );
    const result = { additionalContext: [] as string[], errors: [] as string[] };
    for (const outcome of outcomes) {
      if (outcome.kind === "failed") result.errors.push(outcome.message);
      else if (outcome.kind === "success" && outcome.json?.hookSpecificOutput?.additionalContext)
        result.additionalContext.push(outcome.json.hookSpecificOutput.additionalContext);
    }
    return result;
  }

  /** Like Stop, for a subagent: exit 2 or `decision: "block"` sends it back with the reason. */
  async subagentStop(
    agent: { agentId: string; agentType: string; transcriptPath?: string; lastMessage: string },
    stopHookActive: boolean,
    signal?: AbortSignal,
  ): Promise<SubagentStopResult> {
    if (agent.agentType === HOOK_VERIFIER_AGENT) return { errors: [] };
    const outcomes = await this.run(
      "SubagentStop",
      agent.agentType,
      {
        stop_hook_active: stopHookActive,
        agent_id: agent.agentId,
        agent_type: agent.agentType,
        agent_transcript_path: agent.transcriptPath ?? "",
        last_assistant_message: agent.lastMessage,
      },
      signal,
    );
    return foldStopOutcomes(outcomes, "a SubagentStop hook asked to continue");
  }

  /** The session ends (matcher: the reason). It cannot block; its hooks are cut off at a short bound. */
  async sessionEnd(reason: SessionEndReason): Promise<{ errors: string[] }> {
    const fromEnv = Number(process.env.WARDEN_SESSIONEND_HOOKS_TIMEOUT_MS);
    const bound = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : SESSION_END_TIMEOUT_MS;
    const outcomes = await this.run("SessionEnd", reason, { reason }, AbortSignal.timeout(bound));
    return { errors: outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : [])) };
  }

  /** The user is needed (matcher: the notification type); fire-and-forget, its answer is ignored. */
  async notification(
    notificationType: NotificationType,
    message: string,
    signal?: AbortSignal,
  ): Promise<{ errors: string[] }> {
    const outcomes = await this.run(
      "Notification",
      notificationType,
      { message, notification_type: notificationType },
      signal,
    );
    return { errors: outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : [])) };
  }

  /**
   * Somebody is about to be asked about a tool call (matcher: the tool's name); a hook may answer
   * allow or deny for them. `suggestions`: the "don't ask again" rules the question would offer.
   */
  async permissionRequest(
    toolName: string,
    toolInput: ToolInput,
    toolUseId: string,
    suggestions: readonly unknown[],
    signal?: AbortSignal,
  ): Promise<PermissionRequestResult> {
    const outcomes = await this.run(
      "PermissionRequest",
      toolName,
      { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId, permission_suggestions: suggestions },
      signal,
    );
    return foldPermissionRequestOutcomes(outcomes);
  }

  /** A turn ended on a model error (matcher: the kind of error); nothing can be changed, so the answer is ignored. */
  async stopFailure(error: string, lastAssistantMessage: string, signal?: AbortSignal): Promise<{ errors: string[] }> {
    const kind: StopFailureKind = stopFailureKind(error);
    const outcomes = await this.run(
      "StopFailure",
      kind,
      { error: kind, error_details: error, last_assistant_message: lastAssistantMessage },
      signal,
    );
    return { errors: outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : [])) };
  }

  /** TaskCreated / TaskCompleted: may refuse with a reason the model reads (no matcher). */
  async taskEvent(
    event: "TaskCreated" | "TaskCompleted",
    task: { id: string; subject: string; description: string },
    team: { teamName: string; memberName: string } | undefined,
    signal?: AbortSignal,
  ): Promise<{ blocked?: string; errors: string[] }> {
    const outcomes = await this.run(
      event,
      undefined,
      {
        task_id: task.id,
        task_subject: task.subject,
        task_description: task.description,
        ...(team && { teammate_name: team.memberName, team_name: team.teamName }),
      },
      signal,
    );
    const { errors, blocked } = foldContextOutcomes(outcomes, `a ${event} hook refused`);
    return blocked !== undefined ? { blocked, errors } : { errors };
  }

  /** A settings file changed (matcher: its source); exit 2 or `decision: "block"` objects to it. */
  async configChange(source: string, filePath: string): Promise<{ blocked?: string; errors: string[] }> {
    const outcomes = await this.run("ConfigChange", source, { source, file_path: filePath });
    const { errors, blocked } = foldContextOutcomes(outcomes, "a ConfigChange hook blocked the change");
    return blocked !== undefined ? { blocked, errors } : { errors };
  }

  async instructionsLoaded(input: InstructionsLoadedInput): Promise<{ errors: string[] }> {
    const outcomes = await this.run("InstructionsLoaded", input.load_reason, { ...input });
    return { errors: outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : [])) };
  }

  async worktreeCreate(name: string, signal?: AbortSignal): Promise<{ path?: string; failure?: string }> {
    return foldWorktreeCreate(await this.run("WorktreeCreate", undefined, { name }, signal));
  }

  async worktreeRemove(path: string, signal?: AbortSignal): Promise<{ errors: string[] }> {
    const outcomes = await this.run("WorktreeRemove", undefined, { worktree_path: path }, signal);
    return { errors: outcomes.flatMap((o) => (o.kind === "success" ? [] : [o.message])) };
  }

  /** The shell's directory changed (no matcher); CLAUDE_ENV_FILE works as for SessionStart. */
  async cwdChanged(
    oldCwd: string,
    newCwd: string,
    signal?: AbortSignal,
  ): Promise<{ env?: Record<string, string>; errors: string[] }> {
    const envFile = createHookEnvFile();
    const outcomes = await this.run("CwdChanged", undefined, { old_cwd: oldCwd, new_cwd: newCwd }, signal, {
      CLAUDE_ENV_FILE: envFile.path,
    });
    this.watchPathsListener?.(watchPathsOf(outcomes), newCwd);
    return this.withEnvFile(envFile, outcomes);
  }

  /** A working folder was added (no matcher); the hooks are told, nothing can refuse. */
  async directoryAdded(
    directory: string,
    source: DirectoryAddedSource,
    signal?: AbortSignal,
  ): Promise<{ errors: string[] }> {
    const outcomes = await this.run("DirectoryAdded", undefined, { directory, source }, signal);
    return { errors: outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : [])) };
  }

  /** What the hooks wrote to CLAUDE_ENV_FILE, beside their failures. */
  private async withEnvFile(
    envFile: ReturnType<typeof createHookEnvFile>,
    outcomes: readonly HookOutcome[],
  ): Promise<{ env?: Record<string, string>; errors: string[] }> {
    const errors = outcomes.flatMap((o) => (o.kind === "failed" ? [o.message] : []));
    try {
      const env = await envFile.collect({ ...process.env, ...this.options.env });
      return Object.keys(env).length > 0 ? { env, errors } : { errors };
    } catch (error) {
      return { errors: [...errors, `CLAUDE_ENV_FILE could not be read: ${(error as Error).message}`] };
    }
  }

  /**
   * A watched file changed on disk (matcher: its name). Nothing can be refused; CLAUDE_ENV_FILE
   * works as for SessionStart, and watchPaths replace the files watched besides the matchers'.
   */
  async fileChanged(
    filePath: string,
    change: "change" | "add" | "unlink",
    name: string,
  ): Promise<{ env?: Record<string, string>; errors: string[] }> {
    const envFile = createHookEnvFile();
    const outcomes = await this.run("FileChanged", name, { file_path: filePath, event: change }, undefined, {
      CLAUDE_ENV_FILE: envFile.path,
    });
    const watchPaths = watchPathsOf(outcomes);
    if (watchPaths) this.watchPathsListener?.(watchPaths);
    return this.withEnvFile(envFile, outcomes);
  }

  /** A teammate is about to go idle (no matcher): blocking keeps it working, `continue: false` stops it. */
  async teammateIdle(
    teammate: { teamName: string; name: string },
    signal?: AbortSignal,
  ): Promise<{ continueWith?: string; stop?: string; errors: string[] }> {
    const outcomes = await this.run(
      "TeammateIdle",
      undefined,
      { teammate_name: teammate.name, team_name: teammate.teamName },
      signal,
    );
    const stops = outcomes.flatMap((o) =>
      o.kind === "success" && o.json?.continue === false ? [o.json.stopReason ?? "a TeammateIdle hook stopped it"] : [],
    );
    const folded = foldStopOutcomes(outcomes, "a TeammateIdle hook asked to keep working");
    return stops.length > 0 ? { stop: stops.join("\n"), errors: folded.errors } : folded;
  }

  /** An MCP server asks the user (matcher: the server's name); a hook may answer first. */
  async elicitation(request: ElicitationQuestion, signal?: AbortSignal): Promise<ElicitationAnswer> {
    const outcomes = await this.run("Elicitation", request.server, elicitationInput(request), signal);
    return foldElicitation(outcomes, "an Elicitation hook declined the request");
  }

  /** The answer is about to go back to the server (matcher: its name); a hook may change it. */
  async elicitationResult(
    request: ElicitationQuestion,
    result: ElicitationReply,
    signal?: AbortSignal,
  ): Promise<ElicitationAnswer> {
    const outcomes = await this.run("ElicitationResult", request.server, resultInput(request, result), signal);
    return foldElicitation(outcomes, "an ElicitationResult hook blocked the answer");
  }
}
