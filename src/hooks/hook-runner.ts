// Runs the hooks configured in settings for each event and folds their outcomes into one answer
// per event. Hooks of one event run in parallel; for PreToolUse the strictest answer wins, and a
// hook that fails (crash, hang, broken output) refuses the call: a guard that could not look has
// not said yes.
import { randomUUID } from "node:crypto";
import type { HookEventName, HookMatcherConfig, HooksConfig } from "../config/settings-schema.js";
import type { CompactHooks, CompactTrigger, PreCompactResult } from "../tool/compact-hooks.js";
import type {
  PostToolUseFailureResult,
  PostToolUseResult,
  PreToolUseResult,
  SubagentStopResult,
  ToolCallHooks,
} from "../tool/tool-call-hooks.js";
import type { ToolInput } from "../tool/types.js";
import { foldContextOutcomes, foldStopOutcomes } from "./hook-folds.js";
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
import { type HookCommandResult, runHookCommand } from "./run-command.js";

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
}

export class HookRunner implements ToolCallHooks, CompactHooks {
  private callbacks: { hooks: CallbackHooks; run: HookCallbackRunner } | undefined;

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

  has(event: HookEventName): boolean {
    return (this.options.config[event]?.length ?? 0) > 0 || (this.callbacks?.hooks[event]?.length ?? 0) > 0;
  }

  private async run(
    event: HookEventName,
    toolName: string | undefined,
    payload: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<HookOutcome[]> {
    const matchers: HookMatcherConfig[] = this.options.config[event] ?? [];
    const commands = matchers
      .filter((m) => toolName === undefined || matcherAccepts(m.matcher, toolName))
      .flatMap((m) => m.hooks);
    const callbackIds = (this.callbacks?.hooks[event] ?? [])
      .filter((m) => toolName === undefined || matcherAccepts(m.matcher, toolName))
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
        await this.runCallback(id, input, toolUseId, timeoutMs, signal),
        timeoutMs,
      );
    });
    const fromCommands = Promise.all(
      commands.map(async (hook) => {
        const timeoutMs =
          hook.timeout !== undefined ? hook.timeout * 1000 : (this.options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
        const observed = this.observer && {
          hookId: randomUUID(),
          hookName: toolName ? `${event}:${toolName}` : event,
          event,
        };
        if (observed) this.observer?.({ kind: "started", ...observed });
        const result = await runHookCommand(hook.command, input, {
          cwd: this.options.cwd,
          timeoutMs,
          env,
          signal,
          ...(observed && {
            onOutput: (stdout: string, stderr: string) =>
              this.observer?.({ kind: "progress", ...observed, stdout, stderr }),
          }),
        });
        if (observed) {
          const failed = result.timedOut || result.spawnError !== undefined || result.exitCode !== 0;
          this.observer?.({
            kind: "response",
            ...observed,
            stdout: result.stdout,
            stderr: result.spawnError ?? result.stderr,
            exitCode: result.exitCode,
            outcome: signal?.aborted ? "cancelled" : failed ? "error" : "success",
          });
        }
        return interpretHookResult(hook.command, result, timeoutMs);
      }),
    );
    const outcomes = [...(await fromCommands), ...(await Promise.all(fromCallbacks))];
    this.recordOutcomes?.(hookOutcomeEntry(event, toolName, payload, outcomes));
    return outcomes;
  }

  /** A hook function's answer in a command's terms: its JSON on stdout, a throw or a timeout a failure. */
  private async runCallback(
    id: string,
    input: Record<string, unknown>,
    toolUseId: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<HookCommandResult> {
    const run = this.callbacks?.run;
    const base = { exitCode: 0, signal: null, stderr: "", timedOut: false };
    if (!run) return { ...base, stdout: "" };
    let timer: NodeJS.Timeout | undefined;
    // An aborted signal ends the wait too: SessionEnd's bound holds for a host that never answers.
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
      if (signal?.aborted) resolve("timeout");
      signal?.addEventListener("abort", () => resolve("timeout"), { once: true });
    });
    try {
      const answer = await Promise.race([run(id, input, toolUseId, signal), timedOut]);
      if (answer === "timeout") return { ...base, exitCode: null, stdout: "", timedOut: true };
      return { ...base, stdout: answer === undefined || answer === null ? "" : JSON.stringify(answer) };
    } catch (error) {
      return { ...base, exitCode: 1, stdout: "", stderr: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
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
    const hooks = outcomes.map((o) => o.hook);
    const refusals: string[] = [];
    let behavior: "allow" | "ask" | "none" = "none";
    let reason: string | undefined;
    let updatedInput: ToolInput | undefined;
    const additionalContext: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.kind === "failed") {
        refusals.push(`${outcome.message}; the call is refused because its PreToolUse hook could not check it`);
        continue;
      }
      if (outcome.kind === "blocking") {
        refusals.push(`PreToolUse hook refused: ${outcome.message}`);
        continue;
      }
      const json = outcome.json;
      if (!json) continue;
      const specific = json.hookSpecificOutput;
      const decision =
        specific?.permissionDecision ??
        (json.decision === "block" ? "deny" : json.decision === "approve" ? "allow" : undefined);
      const why = specific?.permissionDecisionReason ?? json.reason;
      if (json.continue === false) {
        refusals.push(`PreToolUse hook stopped the run: ${json.stopReason ?? why ?? "no reason given"}`);
        continue;
      }
      if (decision === "deny") {
        refusals.push(`PreToolUse hook denied: ${why ?? "no reason given"}`);
        continue;
      }
      // ask beats allow: one hook wanting a human is enough.
      if (decision === "ask" && behavior !== "ask") {
        behavior = "ask";
        reason = why;
      } else if (decision === "allow" && behavior === "none") {
        behavior = "allow";
        reason = why;
      }
      if (specific?.updatedInput) updatedInput = specific.updatedInput;
      if (specific?.additionalContext) additionalContext.push(specific.additionalContext);
    }
    if (refusals.length > 0) return { behavior: "deny", message: refusals.join("\n"), hooks };
    return { behavior, reason, updatedInput, additionalContext, hooks };
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
    const result: PostToolUseResult = { feedback: [], additionalContext: [], errors: [] };
    for (const outcome of outcomes) {
      if (outcome.kind === "failed") result.errors.push(outcome.message);
      else if (outcome.kind === "blocking") result.feedback.push(outcome.message);
      else if (outcome.json) {
        if (outcome.json.decision === "block")
          result.feedback.push(outcome.json.reason ?? "a PostToolUse hook objected");
        const context = outcome.json.hookSpecificOutput?.additionalContext;
        if (context) result.additionalContext.push(context);
      }
    }
    return result;
  }

  async userPromptSubmit(prompt: string, signal?: AbortSignal): Promise<UserPromptSubmitResult> {
    const outcomes = await this.run("UserPromptSubmit", undefined, { prompt }, signal);
    const { context, errors, blocked } = foldContextOutcomes(outcomes, "blocked by a UserPromptSubmit hook");
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

  async sessionStart(
    source: "startup" | "resume" | "clear" | "compact",
    signal?: AbortSignal,
  ): Promise<SessionStartResult> {
    const outcomes = await this.run("SessionStart", undefined, { source }, signal);
    const result: SessionStartResult = { additionalContext: [], errors: [] };
    for (const outcome of outcomes) {
      if (outcome.kind === "failed") result.errors.push(outcome.message);
      else if (outcome.kind === "blocking") result.errors.push(`SessionStart hook: ${outcome.message}`);
      else if (outcome.json?.hookSpecificOutput?.additionalContext) {
        result.additionalContext.push(outcome.json.hookSpecificOutput.additionalContext);
      } else if (outcome.text) {
        result.additionalContext.push(outcome.text);
      }
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
}
