import type * as z from "zod";
import type { AssistantMessage, Message, ToolResultBlock, Usage, UserMessage } from "../messages/types.js";
import type { AgentDefinition } from "./agents.js";
import type { AppState } from "./app-state.js";
import type { CallMemo } from "./call-memo.js";
import type { EditorAccess } from "./editor.js";
import type { FleetAccess } from "./fleet.js";
import type {
  PermissionDecision,
  PermissionMode,
  PermissionResult,
  PreToolUseHookDecision,
  ToolPermissionContext,
} from "./permission-types.js";
import type { ReadFileState } from "./read-file-state.js";
import type { SessionChannels } from "./session-channels.js";
import type { SandboxSettings } from "./shell-state.js";
import type { SideQuery } from "./side-query.js";
import type { TeamContext, TeammateStatus, TeammateWorktree } from "./team.js";
import type { UserDialog } from "./user-dialog.js";

export type ToolInput = Record<string, unknown>;

/** A JSON Schema object as sent to the model (MCP tools carry their server's schema unchanged). */
export type JSONSchema = { type?: string; properties?: Record<string, unknown>; [key: string]: unknown };

export type ValidationResult = { result: true } | { result: false; message: string; errorCode: number };

export interface ToolResult<Output> {
  data: Output;
  /** Extra messages to append after the tool results (e.g. a reminder the tool wants the model to see). */
  newMessages?: Message[];
  /** Changes the context for the calls that follow (applied in call order; see orchestration). */
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
}

/**
 * Session-level options every tool call can see, fixed for the session. Every field is declared
 * here (no declaration merging): a tool that needs another option adds it to this interface.
 */
export interface ToolUseContextOptions {
  /** The tools of this session's pool (what the model may call). */
  tools: AnyTool[];
  /** `provider:model` of the main loop. */
  model: string;
  /** The session's original working directory (the Bash tool keeps its own current one). */
  cwd: string;
  sessionId: string;
  /** Per-session folder for tool-results/, file-history/ and other artifacts. */
  sessionDir: string;
  /** True when nobody can answer a permission prompt (headless, MCP server). */
  isNonInteractive: boolean;
  /**
   * True when the process ends once its prompt is answered (`warden -p`, a fleet job): nothing
   * scheduled for later in this session would ever run.
   */
  endsWithPrompt?: boolean;
  verbose?: boolean;
  /**
   * Who answers AskUserQuestion and approves plans when no permission prompt does (a library's
   * callbacks). Absent: those tools go through the permission prompt, or, when nobody can be
   * asked, tell the model to decide by itself.
   */
  userDialog?: UserDialog;
  /**
   * Runs subagents (the Agent tool's children) in this session: their own loop, the session's
   * provider and transcripts. Absent: the Agent tool says subagents cannot run here.
   */
  subagents?: SubagentHost;
  /**
   * One-shot questions to a model outside the conversation (./side-query.ts), counted in the
   * session's cost. Absent (a library's bare context, `warden mcp serve`): tools that would use
   * one do without it.
   */
  sideQuery?: SideQuery;
  /**
   * The fleet (./fleet.ts), when a Redis URL is configured: remote agents, RemoteTrigger, durable
   * Cron tasks as repeatable jobs. Absent: those say a fleet is needed, durable Cron uses its file.
   */
  fleet?: FleetAccess;
  /**
   * The editor driving the session over ACP (./editor.ts): its file system (Read, Edit and Write
   * go through it for text files) and its terminals (Bash runs unsandboxed commands in them).
   * Absent: the disk and Warden's own processes.
   */
  editor?: EditorAccess;
  /**
   * Records a call the permission layer refused inside a subagent (a teammate, a nested agent) in
   * the session's own list, so the headless result's `permission_denials` names it as it names the
   * main thread's. Children inherit it with the options, so a grandchild's refusal reaches the top.
   */
  reportDenial?: (denial: RefusedCall) => void;
}

/** A refused call as the headless result lists it (orchestration's PermissionDenialRecord). */
export interface RefusedCall {
  tool_name: string;
  tool_use_id: string;
  tool_input: ToolInput;
}

/**
 * What one tool call can reach: the session's options, its own abort signal, the conversation, the
 * session state (AppState, ./app-state.ts) and what the model has read. The executor gives each
 * call its own copy (its own abortController and toolUseId).
 */
export interface ToolUseContext {
  options: ToolUseContextOptions;
  /** Aborting this cancels the call; tools must pass its signal to whatever they wait on. */
  abortController: AbortController;
  /** The conversation so far, as the model will see it. */
  messages: Message[];
  getAppState(): AppState;
  setAppState(update: (prev: AppState) => AppState): void;
  /** The session's mailboxes (./session-channels.ts): what one layer leaves for another. */
  channels: SessionChannels;
  readFileState: ReadFileState;
  /** Set only inside a subagent. */
  agentId?: string;
  /**
   * Who runs this loop: absent for the main thread, `agent:<type>` in a subagent,
   * FORK_QUERY_SOURCE in a fork child (./agents.ts), which must never fork again.
   */
  querySource?: string;
  /**
   * The request of the current turn as it was sent (system prompt, tool schemas, messages), set by
   * the loop for the turn's tool calls: a fork continues it byte for byte to share the cache.
   */
  renderedRequest?: RenderedRequest;
  /** The id of the tool_use being executed, when there is one. */
  toolUseId?: string;
  /**
   * The memory of the call being executed (./call-memo.ts), carried on its resolved call: what an
   * earlier step learned about the input that a later one reuses (the Bash permission check's
   * analysis, reused by call()). Absent outside a call; a tool then computes what it needs.
   */
  callMemo?: CallMemo;
}

/**
 * What a caller that knows the call hands a tool's synchronous judgements (Tool.isReadOnly and
 * Tool.isConcurrencySafe): where the call's session is, and the call's own memory, if it has one.
 */
export interface CallScope {
  /** The session's current working directory (absent: the process's, as a last resort). */
  cwd?: string;
  /** The call's memo (./call-memo.ts): a judgement kept here lives as long as the call. */
  memo?: CallMemo;
}

/** What the step before the permission decision hands it, for this one call. */
export interface CanUseToolOptions {
  /** What this call's PreToolUse hooks said (absent: no hook ran or none had a say). */
  preToolUseDecision?: PreToolUseHookDecision;
}

/** The authority a tool asks before running nested tools (and the loop before every call). */
export type CanUseTool = (
  tool: AnyTool,
  input: ToolInput,
  context: ToolUseContext,
  assistantMessage: AssistantMessage | undefined,
  toolUseId: string,
  options?: CanUseToolOptions,
) => Promise<PermissionDecision>;

/** What a tool's prompt() may consult to write its model-facing text. */
/** What a warm-up hands Tool.whenReady. */
export interface WhenReadyOptions {
  /** Awaited between loading steps: resolves when the session can spare the CPU for the next one. */
  pace?: () => Promise<void>;
}

export interface ToolPromptOptions {
  tools: readonly AnyTool[];
  permissionContext: ToolPermissionContext;
  cwd: string;
  /** The session's sandbox settings, so the Bash prompt can describe the sandbox. */
  sandboxSettings?: SandboxSettings;
}

export type InterruptBehavior = "cancel" | "block";

/** How a file tool touches the path it names: which path rules govern it (see Tool.fileAccess). */
export type FileAccessKind = "read" | "write";

/**
 * A tool as the loop, the executor and the permission engine see it. Every member is declared
 * here, grouped by who asks for it; buildTool() (./build-tool.ts) fills fail-closed defaults for
 * the traits a definition leaves out.
 */
export interface Tool<Input extends ToolInput = ToolInput, Output = unknown, Progress = unknown> {
  // --- Identity, and how the tool is offered to the model ---
  readonly name: string;
  /** Former names still accepted from the model and in rules. */
  readonly aliases?: readonly string[];
  /** 3-10 words ToolSearch matches on besides the name and description. */
  readonly searchHint?: string;
  /** Above this a result is persisted to disk and the model gets a preview (Infinity: never). */
  readonly maxResultSizeChars: number;
  /** Deferred: only the name is sent until ToolSearch loads the schema. */
  readonly shouldDefer?: boolean;
  /** Never deferred, whatever else says so. */
  readonly alwaysLoad?: boolean;
  /** Ask the provider for strict schema adherence where it supports it. */
  readonly strict?: boolean;
  /** Set for tools that come from an MCP server. */
  readonly mcpInfo?: { serverName: string; toolName: string };
  /**
   * The model-facing description when it is fixed text known without awaiting prompt() (MCP
   * tools carry their server's). Lets auto mode size the schemas synchronously (./deferred.ts).
   */
  readonly staticDescription?: string;
  /**
   * Reminders this tool keeps giving the model between calls (a todo list re-injected every few
   * turns), asked before each request while the tool is in the pool (./attachments.ts).
   */
  readonly attachments?: readonly AttachmentSource[];

  // --- Input ---
  /** Parses and validates the model's input. */
  readonly inputSchema: z.ZodType<Input>;
  /** When set, sent to the model instead of a schema derived from inputSchema (MCP tools). */
  readonly inputJSONSchema?: JSONSchema;

  /**
   * The shape of `call()`'s data when it is a structured result worth giving as such (Glob's file
   * list, Grep's lines): `warden mcp serve` sends it as the tool's outputSchema and the data as
   * structuredContent beside the text.
   */
  readonly outputSchema?: z.ZodType<Output>;

  // --- Running ---
  call(
    args: Input,
    context: ToolUseContext,
    canUseTool: CanUseTool,
    parentMessage: AssistantMessage | undefined,
    onProgress?: (progress: Progress) => void,
  ): Promise<ToolResult<Output>>;

  // --- Text for the model and the user ---
  /** One line describing what this particular call does (for prompts and transcripts). */
  description(input: Partial<Input> | undefined): Promise<string>;
  /** The model-facing text that teaches the tool's use. */
  prompt(options: ToolPromptOptions): Promise<string>;

  // --- Traits: what the tool says about itself and about one input (scheduling, modes, UI) ---
  isEnabled(): boolean;
  /**
   * For a tool whose judgements below need something that loads lazily (Bash: the shell analysis
   * and its grammar, whose placeholder answer is "not read-only"): starts that loading if need be
   * and returns it while it lasts, undefined once the judgements are exact. The executor awaits it
   * before judging a call's concurrency, so the answer never depends on how fast the model was.
   * Must not reject for good reasons; if it does, the judgement is made anyway (failing closed).
   * A warm-up (loading early only because the session is idle) passes `pace`: the loading awaits
   * it between steps so that it gives way to the session's work; a call without it, the
   * executor's, needs the answer now and makes a paced loading under way go on at full speed.
   */
  whenReady?(options?: WhenReadyOptions): Promise<void> | undefined;
  /**
   * The synchronous judgements, asked several times for one call (by the executor when the call
   * arrives, by plan mode in the permission pipeline, by the transcript). A caller that knows the
   * call hands its scope: the session's directory to judge against and the call's memo, so an
   * expensive judgement (Bash: a full shell parse) is made once per call and never shared with
   * another call or another session. Without a scope the tool judges afresh.
   */
  isReadOnly(input: Input, scope?: CallScope): boolean;
  isConcurrencySafe(input: Input, scope?: CallScope): boolean;
  isDestructive(input: Input): boolean;
  isOpenWorld(input: Input): boolean;
  /** What happens to a running call when the user sends a new message. */
  interruptBehavior(): InterruptBehavior;
  /**
   * When a call of this tool fails, the calls running or queued beside it in the same response
   * are cancelled (Bash: shell steps usually depend on each other, so `make` failing makes the
   * `make test` beside it pointless). Default false: one failed Read says nothing of the others.
   */
  readonly cancelsSiblingsOnError: boolean;
  /** A tool that must talk to a human asks even in bypass mode. */
  requiresUserInteraction(): boolean;
  /**
   * The file a file tool acts on, absolute, for path rules and safety checks; a relative path in
   * the input means one under `cwd`, the session's working directory (./working-directory.ts).
   */
  getPath?(input: Input, cwd: string): string | undefined;
  /**
   * The input with every path it names made absolute against `cwd` (the session's working
   * directory when the call starts). run-tool-use.ts applies it before anything looks at the
   * input (validation, PreToolUse hooks, the permission decision, the call), and again after a
   * hook or the person rewrote it, so each of them judges and acts on the same absolute path: a
   * hook guarding `/repo/secrets` is not passed by `secrets/key`, nor a deny rule by `../x`.
   */
  withAbsolutePaths?(input: Input, cwd: string): Input;
  /**
   * Which path rules govern the file this tool acts on, whatever the tool is called: rules named
   * after any "read" tool (`Read(./secrets/**)`, `Grep(...)`) stop every read, rules named after
   * any "write" tool (`Edit(...)`, `Write(...)`) every write. undefined: no file access of its own.
   */
  readonly fileAccess: FileAccessKind | undefined;
  /**
   * Auto mode may allow this tool's asks without its classifier: whatever the input, a call only
   * looks (or keeps the session's own notes). False makes the classifier judge each call.
   */
  readonly autoModeSafe: boolean;
  /**
   * Which subagents may be given this tool (src/tools/agent/tool-filter.ts). Absent or 'all': any
   * agent; 'built-in': only Warden's own agents, not a user's or a repository's; 'teammates': no
   * subagent but a teammate (it talks with the team's lead: SendMessage, ExitPlanMode); 'none': no
   * subagent at all (it talks with the user or steers the main session).
   */
  readonly subagentAccess?: "all" | "built-in" | "teammates" | "none";

  // --- Checks before the call runs (src/orchestration/run-tool-use.ts) ---
  validateInput?(input: Input, context: ToolUseContext): Promise<ValidationResult>;
  /** The tool's own say on this input; rules and modes are the engine's job. */
  checkPermissions(input: Input, context: ToolUseContext): Promise<PermissionResult<Input>>;

  // --- Presenting the call and its result ---
  userFacingName(input: Partial<Input> | undefined): string;
  /** Turns the call's output into what the model reads. */
  mapToolResult(output: Output, toolUseId: string): ToolResultBlock;
  /** A compact rendering of the input for an auto-mode classifier ('' = nothing to judge: ask). */
  toAutoClassifierInput(input: Input): string;
}

// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous pool needs the widest input type; calls are checked by the tool's own schema at run time.
export type AnyTool = Tool<any, any, any>;

// --- Attachments: reminders asked for before each model request (./attachments.ts) ---

/** What a source may look at when asked. */
export interface AttachmentContext {
  /** The running query's context: AppState, what the model has read, the pool, cwd, messages. */
  context: ToolUseContext;
  /** Model requests the session made before the coming one (1 before the second request). */
  turn: number;
  now: Date;
  /** How full the context was at the last request (estimated tokens), when known. */
  contextUsage?: {
    estimatedTokens: number;
    contextWindow: number;
    /** The estimate at which the conversation is compacted. */
    compactAt: number;
  };
  /** Set when the session keeps a USD budget; spent is null while the cost is unknown. */
  budget?: { spentUsd: number | null; maxUsd: number };
  /**
   * What the loop took from the session's channels for this request, for the sources that show it
   * (sources only read; the loop drains): reminders for `hook_context`, queued messages for
   * `queued_command`. Absent where nothing was taken (a compaction's re-attachment).
   */
  arrived?: ArrivedItems;
}

/** The channel items the loop took for one request (see AttachmentContext.arrived). */
export interface ArrivedItems {
  reminders: readonly string[];
  userMessages: readonly UserMessage[];
}

/**
 * One thing a source has for the coming request: `text` goes out wrapped in <system-reminder> in a
 * meta user message; `message` joins the conversation unchanged (a message the user queued keeps
 * their own words).
 */
export type AttachmentItem = { text: string } | { message: UserMessage };

export interface AttachmentSource {
  /** The kind's name (`edited_text_file`, `nested_memory`, `todo_reminder`, ...), unique in a session. */
  readonly kind: string;
  /**
   * Throttle: the source is not asked again until this many model requests have passed since it
   * last attached something (absent or 0: asked before every request).
   */
  readonly minTurnsBetween?: number;
  /** What this kind has for the coming request; nothing (undefined or []) most of the time. */
  collect(ctx: AttachmentContext): AttachmentItem[] | undefined | Promise<AttachmentItem[] | undefined>;
  /**
   * The state to put back after a compaction summarised the conversation away (the todo list, the
   * plan file, memory files that were attached): plain text, or nothing.
   */
  afterCompaction?(ctx: AttachmentContext): string | undefined | Promise<string | undefined>;
}

// --- Subagents: what the Agent tool hands the session's host (src/loop/subagent/) ---

/** What the Agent tool hands the host: everything decided, nothing left to look up. */
export interface SubagentRequest {
  agentId: string;
  definition: AgentDefinition;
  description: string;
  prompt: string;
  /** `provider:model`, or undefined for the main loop's model. */
  modelSpec?: string;
  /** The child's tool pool, already filtered (for a fork: the parent's exact pool). */
  tools: AnyTool[];
  /** The child's permission mode (never wider than the parent's). */
  permissionMode: PermissionMode;
  maxTurns?: number;
  /** Working directory of the child (a worktree, or `cwd` of the call). */
  cwd?: string;
  /**
   * The child's working directories when they are not the parent's: an isolated child's are its
   * worktree (and the parent's folders apart from the parent's checkout), so the parent's checkout
   * is outside its workspace.
   */
  workingDirectories?: string[];
  /** Folders the child never writes without asking, even in bypass mode (an isolated child's parent checkout). */
  confinedFrom?: string[];
  /**
   * Fork: the child continues the parent's rendered request (same system prompt bytes, same tool
   * schemas, same messages) with these messages after it.
   */
  fork?: { messages: Message[] };
  /** The child runs detached from the parent's turn (run_in_background). */
  background: boolean;
  /** The authority the child asks: the parent's own, so asks bubble up and deny rules hold. */
  canUseTool: CanUseTool;
  /** The agent's name (the call's `name`), for people and for replay scripts. */
  name?: string;
  /** A background agent's task (id and output file), kept in its sidechain so --resume lists it again. */
  task?: { id: string; outputPath: string };
  /**
   * The conversation to go on from instead of `prompt` (a teammate taken up again after --resume,
   * from its sidechain transcript); its sidechain file is appended to, not started afresh.
   */
  history?: Message[];
  /**
   * With `history`: a new user message after it (a finished subagent continued by SendMessage),
   * recorded in its sidechain after the `agent_resumed` entry.
   */
  followUp?: string;
  /** Called once the child's abort controller exists (a background task stops it through this). */
  onStart?: (abortController: AbortController) => void;
  /** Each of the child's assistant messages, as they come (progress, a background task's output). */
  onMessage?: (message: AssistantMessage) => void;
}

export interface SubagentResult {
  agentId: string;
  /** The final assistant text (what the parent reads). */
  text: string;
  turns: number;
  usage: Usage;
  /** How the child's loop ended (completed, max_turns, aborted_streaming, model_error, ...). */
  reason: string;
  error?: string;
  /** The child's sidechain transcript file, when the session keeps transcripts. */
  transcriptPath?: string;
  durationMs: number;
}

/** Runs subagents for a session (implemented by src/loop/subagent/). */
export interface SubagentHost {
  /** Runs a child to its end; aborting the parent's call signal (context) cancels it. */
  run(request: SubagentRequest, parent: ToolUseContext): Promise<SubagentResult>;
  /** The session's teammates (Agent with team_name + name); absent where teams cannot run. */
  teams?: TeamRuntime;
}

/** A teammate to start: a subagent request with its name and team. */
export interface TeammateRequest extends SubagentRequest {
  name: string;
  team: TeamContext;
  /** Its own checkout (isolation "worktree"), where `cwd` points; recorded in the team file. */
  worktree?: TeammateWorktree;
  /** Called once its loop has ended, before it counts as stopped (e.g. to remove an unused worktree). */
  onEnd?: () => Promise<void>;
  /**
   * Who runs the TeammateIdle hooks when its turn ends (a process teammate asks its lead, whose
   * hooks they are); absent: the hooks of its own context.
   */
  onIdle?: (signal: AbortSignal) => Promise<TeammateIdleAnswer>;
}

/** What TeammateIdle hooks said: keep working with feedback, stop, or (neither) go idle. */
export interface TeammateIdleAnswer {
  continueWith?: string;
  stop?: string;
  errors: string[];
}

/**
 * Keeps a session's teammates running: each has its own loop, works on its prompt, goes idle
 * (telling the lead), and wakes when a message reaches its mailbox, until it approves a shutdown
 * request or is stopped.
 */
export interface TeamRuntime {
  /** Starts the teammate and returns once it runs (its work goes on without the caller). */
  spawn(request: TeammateRequest, parent: ToolUseContext): Promise<void>;
  /** The teammates this session started for the team, stopped ones included. */
  members(teamName: string): TeammateStatus[];
  /** Stops the named teammates (all of the team's when omitted; every team's when teamName is too) and waits for their ends. */
  stop(teamName?: string, names?: readonly string[]): Promise<void>;
  /** Resolves at the next change of any teammate's state (or when `signal` aborts). */
  changed(signal?: AbortSignal): Promise<void>;
}

/** The request a turn sent, as rendered, for a fork to continue byte for byte. */
export interface RenderedRequest {
  system: string;
  tools: ReadonlyArray<{ name: string; description: string; input_schema: unknown; strict?: boolean }>;
  messages: readonly Message[];
}
