import { contextThresholds } from "../context/thresholds.js";
import { addUsage, emptyUsage, type Message, type Usage, type UserContentBlock } from "../messages/types.js";
import { type ModelUsageEntry, UsageLedger } from "../models/cost.js";
import type { ModelInfo } from "../models/resolve.js";
import { type InterruptOutcome, wasInterruptedByNewMessage } from "../orchestration/interrupts.js";
import type { PermissionDenialRecord } from "../orchestration/run-tool-use.js";
import type { ThinkingSetting } from "../providers/types.js";
import type { ExtraTranscriptEntry, TranscriptEntry, TranscriptWriter } from "../session/transcript.js";
import type { AppState } from "../tool/app-state.js";
import type { SessionStore } from "../tool/context.js";
import { type FileReadRecord, ReadFileState } from "../tool/read-file-state.js";
import type { SessionChannels } from "../tool/session-channels.js";
import type { SideQuery } from "../tool/side-query.js";
import type { AnyTool, SubagentHost, ToolUseContext } from "../tool/types.js";
import type { CompactOutcome, ContextManager } from "./context-manager.js";
import { type ContextUsage, measureContextUsage } from "./context-usage.js";
import type { QueryEvent, TerminalEvent } from "./events.js";
import { query } from "./query.js";
import type { SessionAttachments } from "./reminders.js";
import type { RequestPrefixCache } from "./request-prefix.js";
import { sessionToolUseContext } from "./session-context.js";
import type { SessionEngineOptions } from "./session-options.js";
import { recordCompaction, recordQueryResult } from "./session-record.js";
import type { SessionToolPool } from "./session-tool-pool.js";
import { wireSession } from "./session-wiring.js";
import { createSubagentHost } from "./subagent/host.js";
import { waitForTeamMail } from "./team-wait.js";
import { drainQueuedUserMessages, hasQueuedUserMessages, submitWhileRunning } from "./user-message-queue.js";
import { WakeSignal, wakeDue } from "./wake.js";

export class SessionEngine {
  readonly sessionId: string;
  readonly cwd: string;
  /** The main model as named (`provider:model`), following a switch (setModelInfo). */
  get modelLabel(): string {
    return this.mainModelLabel;
  }
  private mainModelLabel: string;
  /** The tools the model may call, in request order. */
  get tools(): readonly AnyTool[] {
    return this.toolPool.current;
  }
  private readonly toolPool: SessionToolPool;
  readonly transcriptPath: string;
  /** The whole conversation, as the model sees it. */
  readonly messages: Message[];
  /** Every refused tool call of the session, in order. */
  readonly permissionDenials: PermissionDenialRecord[] = [];
  private totalUsage: Usage = emptyUsage();
  /** Tokens and cost of every model request of this session, by model. */
  readonly ledger = new UsageLedger();
  /** The main model's window, output limit and price (see setModelInfo). */
  get modelInfo(): ModelInfo {
    return this.mainModelInfo;
  }
  private mainModelInfo: ModelInfo;
  /** How the main loop's model may think, read before each request (the Agent SDK changes it). */
  thinking: ThinkingSetting | undefined;
  private readonly store: SessionStore;
  /** Turns due while no prompt runs (a task ended, a message came): see wake.ts. */
  private readonly wake: WakeSignal;
  private readonly readFileState = new ReadFileState();
  private readonly prefix: RequestPrefixCache;
  private readonly attachments: SessionAttachments;
  private readonly contextManager: ContextManager;
  private readonly now: () => Date;
  /** The date the system prompt states. */
  private readonly startDate: string;
  private readonly transcript: TranscriptWriter | undefined;
  private running: AbortController | undefined;
  /** Work done for a prompt before it is sent (runBeforePrompt); abort() stops it too. */
  private preparing: AbortController | undefined;
  /** Runs the Agent tool's children; the runner itself loads on the first one. */
  private readonly subagents: SubagentHost = createSubagentHost(() => ({
    provider: this.options.provider,
    model: this.options.model,
    modelLabel: this.modelLabel,
    modelInfo: this.modelInfo,
    ledger: this.ledger,
    sessionId: this.sessionId,
    sessionCwd: this.cwd,
    startDate: this.startDate,
    now: this.now,
    transcripts: this.transcript !== undefined,
    loadMemory: this.options.loadMemory !== false,
    maxOutputTokens: this.options.maxOutputTokens,
    contextManagement: this.options.contextManagement,
    teammateRunner: this.options.teammateRunner,
    agentMcpServers: this.options.agentMcpServers,
    preloadSkills: this.options.preloadSkills,
    onForegroundEvent: (parentToolUseId, event) => {
      for (const listener of this.subagentListeners) listener(parentToolUseId, event);
    },
    onBackgroundEvent: (parentToolUseId, event) => {
      for (const listener of this.backgroundSubagentListeners) listener(parentToolUseId, event);
    },
  }));
  private readonly subagentListeners = new Set<(parentToolUseId: string, event: QueryEvent) => void>();
  private readonly backgroundSubagentListeners = new Set<(parentToolUseId: string, event: QueryEvent) => void>();

  /** Tools' one-shot questions to a model (WebFetch, WebSearch), counted in this session's ledger. */
  private readonly sideQuery: SideQuery;

  constructor(private readonly options: SessionEngineOptions) {
    this.cwd = options.cwd;
    this.thinking = options.thinking;
    this.messages = [...(options.initialMessages ?? [])];
    const parts = wireSession(options, this.ledger, this.messages, () => this.wake.check());
    this.sessionId = parts.sessionId;
    this.mainModelLabel = parts.modelLabel;
    this.mainModelInfo = parts.modelInfo;
    this.sideQuery = parts.sideQuery;
    this.store = parts.store;
    this.wake = new WakeSignal(this.store);
    this.toolPool = parts.toolPool;
    this.now = parts.now;
    this.startDate = parts.startDate;
    this.prefix = parts.prefix;
    this.attachments = parts.attachments;
    this.contextManager = parts.contextManager;
    this.transcriptPath = parts.transcriptPath;
    this.transcript = parts.transcript;
  }

  get usage(): Usage {
    return this.totalUsage;
  }

  /**
   * The main loop's requests now go to this model (the Agent SDK's set_model switches the provider
   * under the session): from the next prompt its usage is counted and priced under its own id in
   * modelUsage, and its window and output limit apply.
   */
  setModelInfo(info: ModelInfo, label?: string): void {
    this.mainModelInfo = info;
    if (label !== undefined) this.mainModelLabel = label;
  }

  /** What fills the model's context window now, by kind (the Agent SDK's getContextUsage()). */
  async contextUsage(): Promise<ContextUsage> {
    // Its own context: the running prompt's pool (updated in place by MCP changes) is left alone.
    const prefix = await this.prefix.prefixFor(this.contextWith(new AbortController(), [...this.tools]));
    return measureContextUsage({
      prefix,
      pool: this.tools,
      messages: this.messages,
      modelInfo: this.modelInfo,
      thresholds: contextThresholds(this.modelInfo, this.options.contextManagement),
    });
  }

  /** USD spent by this session so far; null when a model it used has no known price. */
  get totalCostUSD(): number | null {
    return this.ledger.totalCostUSD;
  }

  /** Tokens and cost per model, in the Agent SDK's `modelUsage` shape. */
  modelUsage(): Record<string, ModelUsageEntry> {
    return this.ledger.modelUsage();
  }

  getAppState(): AppState {
    return this.store.getAppState();
  }

  setAppState(update: (prev: AppState) => AppState): void {
    this.store.setAppState(update);
  }

  /** The session's mailboxes (src/tool/session-channels.ts); front ends send through the session's commands. */
  get channels(): SessionChannels {
    return this.store.channels;
  }

  /** True while a submitted prompt is being worked on. */
  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /**
   * True when no prompt runs and something arrived that the model should act on now (a background
   * task ended, a scheduled prompt fell due, a message came): `submitMessage()` without a prompt
   * takes it.
   */
  get wakeDue(): boolean {
    return !this.running && wakeDue(this.store);
  }

  /**
   * Calls `listener` with each event of a foreground subagent's loop as it happens, named by the
   * Agent call it runs for (a front end streams them, as Claude Code does with parent_tool_use_id).
   * Returns the unsubscribe.
   */
  observeSubagents(listener: (parentToolUseId: string, event: QueryEvent) => void): () => void {
    this.subagentListeners.add(listener);
    return () => this.subagentListeners.delete(listener);
  }

  /**
   * The same for background agents (whose Agent call returned when they started): the interactive
   * UI shows their progress; a stream of the main conversation leaves them out, as Claude Code does.
   */
  observeBackgroundSubagents(listener: (parentToolUseId: string, event: QueryEvent) => void): () => void {
    this.backgroundSubagentListeners.add(listener);
    return () => this.backgroundSubagentListeners.delete(listener);
  }

  /** Calls `listener` when a turn becomes due while idle (see `wakeDue`); returns the unsubscribe. */
  onWake(listener: () => void): () => void {
    return this.wake.subscribe(listener);
  }

  /**
   * Runs the agent loop for one prompt. Messages join the session (and its transcript) as they
   * are yielded; the generator ends with the terminal event. Without a prompt, the turn carries
   * only what waits for the model (queued messages, task notices): an idle session's wake.
   * `limits.maxTurns` caps this prompt's model requests below the session's --max-turns (a front
   * end that sends the model back, as --json-schema does, spends only what its run has left).
   */
  async *submitMessage(
    prompt?: string | UserContentBlock[],
    limits?: { maxTurns?: number },
  ): AsyncGenerator<QueryEvent, TerminalEvent> {
    if (this.running) throw new Error("a prompt is already running in this session; wait for it or abort it");
    if (prompt === undefined && !wakeDue(this.store))
      throw new Error("nothing waits for the model: a turn without a prompt needs a queued message or notice");
    let abortController = new AbortController();
    this.running = abortController;
    this.wake.promptStarted();
    let loop: AsyncGenerator<QueryEvent, TerminalEvent> | undefined;
    let loopEnded = false;
    try {
      // Messages left queued by an ESC-ended prompt came first, so they go first.
      for (const queued of drainQueuedUserMessages(this.store)) this.append(queued);
      if (prompt !== undefined) {
        const content: UserContentBlock[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
        this.append({ role: "user", content });
      }
      while (true) {
        const context = this.createContext(abortController);
        loopEnded = false;
        loop = query({
          messages: this.messages,
          provider: this.options.provider,
          model: this.options.model,
          context,
          canUseTool: this.options.canUseTool,
          prefix: this.prefix,
          maxTurns: limits?.maxTurns ?? this.options.maxTurns,
          maxOutputTokens: this.options.maxOutputTokens,
          modelInfo: this.modelInfo,
          ledger: this.ledger,
          maxBudgetUsd: this.options.maxBudgetUsd,
          attachments: this.attachments,
          contextManager: this.contextManager,
          contextManagement: this.options.contextManagement,
          now: this.now,
          thinking: () => this.thinking,
        });
        let terminal: TerminalEvent;
        while (true) {
          const step = await loop.next();
          if (step.done) {
            loopEnded = true;
            terminal = step.value;
            break;
          }
          this.record(step.value);
          this.flushBeforeShowing();
          yield step.value;
        }
        // A message sent while this ran and not yet drained (it stopped the prompt, or arrived
        // after the last request) starts the next query in the same run. ESC keeps it queued.
        const cancelled = abortController.signal.aborted && !wasInterruptedByNewMessage(abortController.signal);
        if (cancelled) return terminal;
        // A lead whose teammates still work goes on with their next message (headless: nobody else will prompt).
        if (!hasQueuedUserMessages(this.store) && !(await this.teamMailArrived(abortController.signal)))
          return terminal;
        abortController = new AbortController();
        this.running = abortController;
      }
    } finally {
      if (loop && !loopEnded) {
        // The consumer stopped listening mid-prompt (break, return): stop the work, and let the
        // loop finish so every tool call is still paired and the conversation stays valid.
        abortController.abort("consumer_stopped");
        for (let step = await loop.next(); !step.done; step = await loop.next()) this.record(step.value);
      }
      this.running = undefined;
      this.wake.promptEnded();
    }
  }

  /** Waits for the team's next message to the lead, when this session leads a working team and waits for it. */
  private teamMailArrived(signal: AbortSignal): Promise<boolean> {
    if (!(this.options.waitForTeammates ?? this.options.isNonInteractive ?? true)) return Promise.resolve(false);
    return waitForTeamMail(this.store.getAppState(), this.subagents.teams, signal);
  }

  /**
   * Stops what runs on without a prompt: teammates and background tasks (agents, shell commands),
   * each ending recorded in its sidechain. Called before close() when the session ends.
   */
  async stopAgents(): Promise<void> {
    await Promise.all([this.subagents.teams?.stop(), this.store.getAppState().backgroundTasks?.stopAll()]);
  }

  private record(event: QueryEvent): void {
    if (event.type === "assistant" || event.type === "user") this.append(event.message);
    else if (event.type === "compact_boundary") {
      // The conversation was summarised: the history becomes the post-compaction messages.
      this.messages.splice(0, this.messages.length, ...event.messages);
      recordCompaction(this.transcript, event, this.store.getAppState().loadedDeferredTools ?? []);
    } else if (event.type === "tool_result" && event.denial) this.permissionDenials.push(event.denial);
    // The list as it now is, for --resume (transcript-reader.ts reads the last one back).
    else if (event.type === "todo") this.transcript?.recordEntry({ type: "todo", ...event.list });
    else if (event.type === "terminal") {
      this.totalUsage = addUsage(this.totalUsage, event.usage);
      recordQueryResult(this.transcript, event);
    }
  }

  /**
   * Summarises the conversation now (`/compact`), with optional instructions for the summary. The
   * session then holds the summary and the state put back; the next prompt continues from them.
   */
  async *compact(instructions?: string): AsyncGenerator<QueryEvent, CompactOutcome> {
    if (this.running) throw new Error("a prompt is running in this session; compact after it ends");
    const abortController = new AbortController();
    this.running = abortController;
    try {
      const context = this.createContext(abortController);
      const prefix = await this.prefix.prefixFor(context);
      const steps = this.contextManager.compact(this.messages, context, prefix, {
        trigger: "manual",
        instructions,
        continueWork: false,
      });
      while (true) {
        const step = await steps.next();
        if (step.done) {
          this.totalUsage = addUsage(this.totalUsage, step.value.usage);
          return step.value;
        }
        this.record(step.value);
        this.flushBeforeShowing();
        yield step.value;
      }
    } finally {
      this.running = undefined;
    }
  }

  /** Stops the running prompt: the model stream and tool calls are cancelled, every call still gets a result. */
  abort(reason?: unknown): void {
    this.running?.abort(reason);
    this.preparing?.abort(reason);
  }

  /**
   * Runs what a prompt needs before it is sent (a command's `!`cmd`` lines, src/tools/skill/
   * shell-marks.ts) so that an interrupt (Esc, SIGINT, the SDK's) stops it as it stops a prompt:
   * `work` gets the signal abort() raises. The caller decides what an interrupted preparation means.
   */
  async runBeforePrompt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abortController = new AbortController();
    this.preparing = abortController;
    try {
      return await work(abortController.signal);
    } finally {
      if (this.preparing === abortController) this.preparing = undefined;
    }
  }

  /**
   * A message the user sends while a prompt runs. It is always queued. When every running tool
   * call is 'cancel', the turn is aborted at once ("interrupted"): those calls stop and the
   * message starts the next query of the same run. Otherwise ("queued") nothing stops and the
   * message joins the next model request of the running prompt.
   */
  sendWhileRunning(prompt: string | UserContentBlock[]): InterruptOutcome {
    if (!this.running) throw new Error("no prompt is running in this session; use submitMessage");
    const content: UserContentBlock[] = typeof prompt === "string" ? [{ type: "text", text: prompt }] : prompt;
    return submitWhileRunning(this.store, this.running, { role: "user", content });
  }

  /** Adds an entry to the transcript (permission decisions, hook outcomes, ...). */
  recordEntry(entry: TranscriptEntry | ExtraTranscriptEntry): void {
    this.transcript?.recordEntry(entry);
  }

  close(): void {
    // Scheduled prompts end with the session (durable ones stay saved for the next).
    this.store.getAppState().cron?.close();
    // Teammates stop with it (stopAgents() waits for their ends; this only asks).
    void this.subagents.teams?.stop();
    this.transcript?.close();
  }

  /**
   * Writes the transcript's pending entries before an event is yielded: the front end prints it
   * synchronously (a stream-json line, a result, a screen), and a host that saw a message must
   * find it in the transcript after a kill -9. Costs a write only when something was recorded
   * since the last one (a message, a decision), about one per message as the deferred write did.
   */
  private flushBeforeShowing(): void {
    this.transcript?.flush();
  }

  private append(message: Message): void {
    this.messages.push(message);
    this.transcript?.recordMessage(message);
  }

  /**
   * Replaces the MCP part of the pool (a server's tools/list_changed, a reconnect). Takes effect
   * from the next model request, also inside a running prompt.
   */
  setMcpTools(mcpTools: readonly AnyTool[]): void {
    this.toolPool.setMcpTools(mcpTools);
  }

  /**
   * Adds tools of the session's own that it did not start with (the Skill tool, once a skill is
   * written while the session runs). Takes effect from the next model request, as setMcpTools.
   */
  addTools(tools: readonly AnyTool[]): void {
    this.toolPool.addTools(tools);
  }

  /**
   * Records that the model has seen a file, as a Read would (the Agent SDK's seed_read_state: the
   * host saw a Read that has since left the context), so a later Edit is not refused as unread.
   */
  seedFileRead(path: string, record: FileReadRecord): void {
    this.readFileState.set(path, record);
  }

  /**
   * A context for a tool call the person makes outside the model's turns (an `@file` the
   * interactive UI attaches with Read): it shares this session's file-read memory, so the model may
   * edit a file the person attached without reading it again.
   */
  toolUseContext(abortController: AbortController): ToolUseContext {
    return this.createContext(abortController);
  }

  private createContext(abortController: AbortController): ToolUseContext {
    return this.contextWith(abortController, this.toolPool.forRunningPrompt());
  }

  private contextWith(abortController: AbortController, tools: AnyTool[]): ToolUseContext {
    const { options, modelLabel, sessionId, messages, readFileState, store, subagents, sideQuery } = this;
    const { permissionDenials } = this;
    const source = {
      options,
      modelLabel,
      sessionId,
      messages,
      readFileState,
      store,
      subagents,
      sideQuery,
      permissionDenials,
    };
    return sessionToolUseContext(source, abortController, tools);
  }
}

export type { SessionEngineOptions } from "./session-options.js";

export function createSession(options: SessionEngineOptions): SessionEngine {
  return new SessionEngine(options);
}
