// The hooks a tool call passes through (PreToolUse before the permission check, PostToolUse after
// the call), as the contract sees them. Settings-configured commands implement this
// (src/hooks/hook-runner.ts); src/hooks/tool-hooks.ts runs them around each call.

/** A tool's parsed input (ToolInput in ./types.ts, spelt out here so this file imports nothing). */
type ToolInput = Record<string, unknown>;

/**
 * What the PreToolUse hooks of one call said together (the strictest answer wins); `hooks` names
 * the hooks that gave that answer (none for "none").
 */
export type PreToolUseResult =
  /** `stop`: a hook answered `continue: false`; the run ends after this response's calls, with this reason. */
  | { behavior: "deny"; message: string; hooks: string[]; stop?: string }
  | {
      behavior: "allow" | "ask" | "none";
      reason?: string;
      updatedInput?: ToolInput;
      additionalContext: string[];
      hooks: string[];
    };

export interface PostToolUseResult {
  /** Exit-2 stderr or `decision: "block"` reasons: feedback for the model about a call that already ran. */
  feedback: string[];
  additionalContext: string[];
  errors: string[];
  /** A hook answered `continue: false`: the run ends after this response's calls, with this reason. */
  stop?: string;
}

/** One call of a batch as PostToolBatch hooks read it (Claude Code's field names). */
export interface ToolBatchCall {
  tool_name: string;
  tool_input: ToolInput;
  tool_use_id: string;
  /** The result's text as the model reads it. */
  tool_response: string;
  is_error: boolean;
}

export interface PostToolBatchResult {
  feedback: string[];
  additionalContext: string[];
  errors: string[];
  /** A hook answered `continue: false`: the run ends before the next request, with this reason. */
  stop?: string;
}

/** What the PostToolUseFailure hooks of a failed call said: context for the model, and their own failures. */
export interface PostToolUseFailureResult {
  additionalContext: string[];
  errors: string[];
  /** A hook answered `continue: false`: the run ends after this response's calls, with this reason. */
  stop?: string;
}

/** What SubagentStop hooks said: `continueWith` sends the subagent back to work with that reason. */
export interface SubagentStopResult {
  continueWith?: string;
  errors: string[];
}

/** What PermissionRequest hooks answered for the person about to be asked (absent decision: no say). */
export type PermissionRequestDecision =
  | { behavior: "allow"; updatedInput?: ToolInput }
  | { behavior: "deny"; message: string; interrupt: boolean };

export interface PermissionRequestResult {
  decision?: PermissionRequestDecision;
  errors: string[];
}

/** What InstructionsLoaded hooks read besides the common fields (Claude Code's names). */
export interface InstructionsLoadedInput {
  file_path: string;
  memory_type: "User" | "Project" | "Local";
  load_reason: "session_start" | "nested_traversal" | "path_glob_match" | "include" | "compact";
  globs?: string[];
  trigger_file_path?: string;
  parent_file_path?: string;
}

/** How a working folder was added: Claude Code's names for `/add-dir` and the SDK request. */
export type DirectoryAddedSource = "slash_command" | "register_repo_root";

/** A slash command or skill a typed prompt names (Claude Code's UserPromptExpansion fields). */
export interface PromptExpansion {
  command_name: string;
  command_args: string;
  /** Where the command or skill was found: `user` or `project`. */
  command_source?: string;
  /** The prompt as typed. */
  prompt: string;
}

export interface PromptExpansionResult {
  blocked?: string;
  additionalContext: string[];
  errors: string[];
}

/** Who asked for the switch: `command` a typed command, `sdk` the SDK's set_model or apply_flag_settings. */
export type ModelSwitchSource = "command" | "picker" | "sdk";

/** What the hooks of a switch are told (the SDK's PreModelSwitchHookInput, less the common fields). */
export interface ModelSwitchFacts {
  fromModel: string;
  toModel: string;
  /** What was asked for; null for the session's own model ("default"). */
  requestedModel: string | null;
  source: ModelSwitchSource;
  /** Prompt tokens the next request re-sends (the last response's input, cache and output tokens). */
  contextTokens: number;
  /** Warden does not keep the cache's age: warm whenever there is a response to re-send. */
  promptCacheWarm: boolean;
  /** Re-caching contextTokens on toModel at its cache-write price (0 when its price is unknown). */
  estimatedCacheWriteUsd: number;
  /** configured: a price from settings; catalog: the built-in price list; default: no price known. */
  pricing: "configured" | "catalog" | "default";
}

/** One `!`command`` line about to run. */
export interface SkillShellCommand {
  command: string;
  /** Identifies this command; it names no tool call in the transcript. */
  id: string;
  /** The command or skill whose text holds the line. */
  commandName: string;
  /** user: typed, or sent by an SDK host; claude: the Skill tool; other: a preload, or not known. */
  invokedBy: "user" | "claude" | "other";
}

export interface ToolCallHooks {
  /** Whether any hook is configured for the event (lets a call skip the hook step entirely). */
  has(
    event:
      | "PreToolUse"
      | "PostToolUse"
      | "PostToolUseFailure"
      | "PermissionRequest"
      | "SubagentStart"
      | "SubagentStop"
      | "Notification"
      | "TaskCreated"
      | "TaskCompleted"
      | "CwdChanged"
      | "WorktreeCreate"
      | "WorktreeRemove"
      | "InstructionsLoaded"
      | "TeammateIdle"
      | "PostToolBatch"
      | "PermissionDenied"
      | "DirectoryAdded"
      | "UserPromptExpansion"
      | "PreModelSwitch"
      | "PostModelSwitch"
      | "PreSkillShellCommand",
  ): boolean;
  /** The session's model is about to be switched; `denied` says why a hook refused (the model unchanged). */
  preModelSwitch(facts: ModelSwitchFacts, signal?: AbortSignal): Promise<{ denied?: string; errors: string[] }>;
  /** The model was switched; additionalContext is for the next request the new model serves. */
  postModelSwitch(
    facts: ModelSwitchFacts,
    signal?: AbortSignal,
  ): Promise<{ additionalContext: string[]; errors: string[] }>;
  /** A `!`command`` line of a command or skill is about to run; `denied` keeps it from running. */
  preSkillShellCommand(line: SkillShellCommand, signal?: AbortSignal): Promise<{ denied?: string }>;
  /** A memory or rule file reached the context (matcher: the load reason); nothing waits on it. */
  instructionsLoaded(input: InstructionsLoadedInput): Promise<{ errors: string[] }>;
  /**
   * Makes a worktree named `name` with the WorktreeCreate hooks (asked only when some are
   * configured): its absolute path, or why there is none.
   */
  worktreeCreate(name: string, signal?: AbortSignal): Promise<{ path?: string; failure?: string }>;
  /** A worktree is given up (left with removal, an isolated agent's run over); nothing can refuse. */
  worktreeRemove(path: string, signal?: AbortSignal): Promise<{ errors: string[] }>;
  /** The shell's directory changed; what the hooks write to CLAUDE_ENV_FILE is environment for later commands. */
  cwdChanged(
    oldCwd: string,
    newCwd: string,
    signal?: AbortSignal,
  ): Promise<{ env?: Record<string, string>; errors: string[] }>;
  /**
   * A working folder was added mid-session (`/add-dir`, the SDK's register_repo_root); nothing
   * can refuse it, the hooks only learn of it.
   */
  directoryAdded(directory: string, source: DirectoryAddedSource, signal?: AbortSignal): Promise<{ errors: string[] }>;
  /**
   * A typed `/name args` prompt is about to become a command's or skill's text: `blocked` (exit
   * code 2, `decision: "block"`) stops the prompt with that reason; `additionalContext` goes with
   * the expanded text.
   */
  userPromptExpansion(expansion: PromptExpansion, signal?: AbortSignal): Promise<PromptExpansionResult>;
  /**
   * A task is being created or completed (TaskCreate, TaskUpdate); `blocked` (exit code 2,
   * `decision: "block"`, `continue: false`) says why it must not be: the tool undoes the creation
   * or leaves the task open, and the reason reaches the model.
   */
  taskEvent(
    event: "TaskCreated" | "TaskCompleted",
    task: { id: string; subject: string; description: string },
    team: { teamName: string; memberName: string } | undefined,
    signal?: AbortSignal,
  ): Promise<{ blocked?: string; errors: string[] }>;
  /** Somebody is about to be asked about a call (matcher: the tool's name); hooks may answer for them. */
  permissionRequest(
    toolName: string,
    toolInput: ToolInput,
    toolUseId: string,
    suggestions: readonly unknown[],
    signal?: AbortSignal,
  ): Promise<PermissionRequestResult>;
  preToolUse(
    toolName: string,
    toolInput: ToolInput,
    toolUseId: string,
    signal?: AbortSignal,
  ): Promise<PreToolUseResult>;
  postToolUse(
    toolName: string,
    toolInput: ToolInput,
    toolResponse: unknown,
    toolUseId: string,
    signal?: AbortSignal,
  ): Promise<PostToolUseResult>;
  /** A call that ended in an error (the tool threw, or its result is an error): `error` is its text. */
  postToolUseFailure(
    toolName: string,
    toolInput: ToolInput,
    toolUseId: string,
    error: string,
    signal?: AbortSignal,
  ): Promise<PostToolUseFailureResult>;
  /** A subagent starts (matcher: its agent type); additionalContext goes to the subagent. */
  subagentStart(
    agent: { agentId: string; agentType: string },
    signal?: AbortSignal,
  ): Promise<{ additionalContext: string[]; errors: string[] }>;
  /** A subagent is about to finish (matcher: its agent type); may send it back to work. */
  subagentStop(
    agent: { agentId: string; agentType: string; transcriptPath?: string; lastMessage: string },
    stopHookActive: boolean,
    signal?: AbortSignal,
  ): Promise<SubagentStopResult>;
  /** The same hooks plus an agent's own (its frontmatter's `hooks`), for the calls of that agent's run. */
  forAgent?(hooks: Readonly<Record<string, unknown>>): ToolCallHooks;
  /**
   * A teammate ended its turn and is about to go idle: `continueWith` (exit code 2,
   * `decision: "block"`) keeps it working with that feedback; `stop` (`continue: false`) ends it.
   */
  teammateIdle(
    teammate: { teamName: string; name: string },
    signal?: AbortSignal,
  ): Promise<{ continueWith?: string; stop?: string; errors: string[] }>;
  /**
   * Every call of one model response has its result, before the next model request: `feedback`
   * (exit code 2, `decision: "block"`) and `additionalContext` reach the model on that request.
   */
  postToolBatch(calls: readonly ToolBatchCall[], signal?: AbortSignal): Promise<PostToolBatchResult>;
  /**
   * The auto-mode classifier refused a call (matcher: the tool's name); `retry` tells the model it
   * may try again. Nothing here can turn the refusal into an allow.
   */
  permissionDenied(
    call: { toolName: string; toolInput: ToolInput; toolUseId: string; reason: string },
    signal?: AbortSignal,
  ): Promise<{ retry: boolean; errors: string[] }>;
  /** The user is needed (`permission_prompt`, `idle_prompt`); fire-and-forget, nothing waits on it. */
  notification(type: "permission_prompt" | "idle_prompt", message: string): Promise<{ errors: string[] }>;
}
