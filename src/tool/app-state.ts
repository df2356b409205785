// AppState: the session-wide mutable state a tool call reaches through
// ToolUseContext.getAppState / setAppState. Every field is declared here, grouped by the part of
// Warden that owns it, so a reader sees all of it in one place. A new tool or layer that needs to
// keep state adds its field (and the type of that field, if it is new) in src/tool/, never by
// declaration merging from its own folder. What one layer leaves for another to take (reminders,
// queued messages, wake requests...) is not state: it travels on the session's channels
// (./session-channels.ts).
import type { AgentCatalog } from "./agents.js";
import type { CompactHooks } from "./compact-hooks.js";
import type { CronSchedule } from "./cron.js";
import type { PermissionMode, ToolPermissionContext } from "./permission-types.js";
import type {
  BackgroundTaskRegistry,
  ForegroundCommandControl,
  SandboxSettings,
  ShellSnapshot,
} from "./shell-state.js";
import type { TaskListReminderState, TaskListStore, TodoListState } from "./task-list.js";
import type { TeamContext } from "./team.js";
import type { ToolCallHooks } from "./tool-call-hooks.js";
import type { ToolSearchMode } from "./tool-search-mode.js";

/**
 * Every budget decision ever sent, per session (src/results/budget.ts). A result is decided the
 * first time a request carries it and never again: kept results go out unchanged forever, replaced
 * ones go out as the very same preview text. A decision that flipped on a later turn would change
 * bytes in the middle of the conversation and throw away the provider's prompt cache from that
 * point on.
 */
export interface ToolResultReplacementState {
  /** tool_use ids whose full result was sent. */
  kept: Set<string>;
  /** tool_use id → the exact content sent in place of the full result. */
  replaced: Map<string, string>;
  /** Set once the session's on-disk journal of replacements has been read into `replaced`. */
  journalRead?: boolean;
}

/** One MCP server's instructions for the model, as it sent them (capped). */
export interface McpServerInstructions {
  server: string;
  text: string;
}

/** The git worktree the session moved into with EnterWorktree (src/tools/enter-worktree/). */
export interface WorktreeState {
  path: string;
  branch: string;
  /** The commit the worktree started from. */
  baseCommit: string;
  /** The main repository's root. */
  repoRoot: string;
  /** Where the session worked before; ExitWorktree returns there. */
  originalCwd: string;
  /** Made by WorktreeCreate hooks: WorktreeRemove hooks remove it, git does not. */
  madeByHook?: boolean;
}

export interface AppState {
  // --- Permissions (src/permissions/) ---
  toolPermissionContext: ToolPermissionContext;
  /** The session's configured hooks (from settings), run around each call; absent = no hooks. */
  hooks?: ToolCallHooks;
  /**
   * Set once the auto-mode classifier's circuit breaker has tripped (too many refusals): leaving
   * plan mode then returns to default mode instead of auto (src/tools/exit-plan-mode/).
   */
  autoModeCircuitTripped?: boolean;

  // --- Plan mode (src/tools/enter-plan-mode/, exit-plan-mode/; the plan file is
  // toolPermissionContext.planFilePath) ---
  /** Set while plan mode was entered with EnterPlanMode: the mode to return to when it ends. */
  planMode?: { previousMode: PermissionMode };
  /** The turn of the last full plan-mode reminder (src/tools/plan-shared/reminder.ts); cleared when plan mode ends. */
  planModeReminderTurn?: number;
  /** The same hooks around a compaction (PreCompact, PostCompact, SessionStart "compact"). */
  compactHooks?: CompactHooks;

  // --- The running turn (src/orchestration/; what waits for the model is in the session's
  // channels, ./session-channels.ts) ---
  /**
   * Kept by the streaming executor (src/orchestration/): calls run and every one of them is
   * 'cancel', so a new user message may abort the turn. The session reads it when the user sends
   * a message, having no handle on the executor.
   */
  hasInterruptibleToolInProgress?: boolean;

  // --- Deferred tools (src/tool/deferred.ts, the ToolSearch tool) ---
  /**
   * Deferred tools the model has loaded with ToolSearch, in the order found. Their schemas are
   * sent from the next request on and stay for the rest of the session.
   */
  loadedDeferredTools?: string[];
  /** The session's tool-search mode when settings chose one (env WARDEN_TOOL_SEARCH wins). */
  toolSearchMode?: ToolSearchMode;

  // --- MCP (src/mcp/) ---
  /**
   * The connected servers' instructions. Those of the first request are in the system prompt;
   * later changes reach the model as a delta (src/context/attachments/deltas.ts).
   */
  mcpInstructions?: McpServerInstructions[];

  // --- The task list (src/tools/todo-write/, src/tools/task-*/, src/session/task-store.ts) ---
  /** TodoWrite lists: the main thread's under MAIN_TODO_LIST, a subagent's under its agentId. */
  todoLists?: Record<string, TodoListState>;
  /**
   * The Tasks family's list, once opened (the session's own folder by default; a team's members
   * share one). Restored on --resume from the transcript's last `todo` entry.
   */
  taskStore?: TaskListStore;
  /** When the task-list reminder last went out, per list (src/tools/task-shared/reminder.ts). */
  taskListReminders?: Record<string, TaskListReminderState>;

  // --- Structured output (src/tools/structured-output/, `warden -p --json-schema`) ---
  /**
   * The run's answer as data: `value.data` once a StructuredOutput call matched the schema (the
   * last one wins), and how many calls did not match.
   */
  structuredOutput?: { value?: { data: unknown }; failedAttempts?: number };

  // --- Scheduled prompts (src/tools/cron-*/) ---
  /** The session's schedule, made on the first CronCreate or when durable tasks are re-armed at start. */
  cron?: CronSchedule;

  // --- Result budget (src/results/) ---
  /** The session's frozen per-message budget decisions (see src/results/budget.ts). */
  toolResultReplacements?: ToolResultReplacementState;

  // --- Web fetch (src/tools/web-fetch/) ---
  /**
   * Hosts this session's permission checks judged (true: judged private), for the fetch to hold
   * their addresses to (DNS rebinding). Created on the session's first check.
   */
  webFetchHostJudgements?: Map<string, boolean>;

  // --- The shell: Bash and the task tools (src/tools/bash/, task-output/, task-stop/) ---
  /** The Bash tool's current directory; a `cd` in one command carries over to the next. */
  bashCwd?: string;
  /** Shell and environment captured on the session's first command. */
  bashShellSnapshot?: ShellSnapshot;
  /**
   * Variables the session adds to the environment of the commands it runs (settings `env` from
   * trusted sources, a library caller's `env` option), over Warden's own environment.
   */
  toolEnv?: Readonly<Record<string, string>>;
  /** This session's background tasks (run_in_background), read by TaskOutput and TaskStop. */
  backgroundTasks?: BackgroundTaskRegistry;
  /** The foreground commands running now, which the person may send to the background (Ctrl+B). */
  foregroundCommands?: ForegroundCommandControl;
  /** The merged `sandbox` settings of this session, as the settings loader parsed them. */
  sandboxSettings?: SandboxSettings;
  /** Set once the model has been told the sandbox cannot run here ("say so once"). */
  sandboxUnavailableNoticeGiven?: boolean;

  // --- Subagents (src/tools/agent/, src/loop/subagent/) ---
  /** The agents this session can spawn, loaded on first need (built-in, files, settings). */
  agentCatalog?: AgentCatalog;
  /** Set while the session works in a worktree it entered: tools resolve paths and run there. */
  worktree?: WorktreeState;
  /** The agent list as last told to the model (src/tools/agent/listing.ts): a change is told again. */
  agentListingSent?: string;

  // --- Teams (src/tools/team-create/, send-message/, src/loop/subagent/teammates.ts) ---
  /** The team this agent leads (after TeamCreate) or belongs to (a teammate). */
  team?: TeamContext;
}
