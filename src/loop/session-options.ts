// What a library user says when creating a session (createSession / new SessionEngine).
import type { ContextManagementOptions } from "../context/thresholds.js";
import type { Message } from "../messages/types.js";
import type { ModelOverride } from "../models/resolve.js";
import type { Provider, ThinkingSetting } from "../providers/types.js";
import type { AgentServerStarter } from "../tool/agent-servers.js";
import type { AgentSkillPreloader } from "../tool/agent-skills.js";
import type { AppState } from "../tool/app-state.js";
import type { EditorAccess } from "../tool/editor.js";
import type { FleetAccess } from "../tool/fleet.js";
import type { ToolPermissionContext } from "../tool/permission-types.js";
import type { AnyTool, AttachmentSource, CanUseTool } from "../tool/types.js";
import type { UserDialog } from "../tool/user-dialog.js";
import type { SystemPromptBuilder } from "./request-prefix.js";
import type { TeammateRunner } from "./subagent/deps.js";

export interface SessionEngineOptions {
  provider: Provider;
  /** The model name the provider expects (no `provider:` prefix). */
  model: string;
  /** `provider:model` as shown to people and the model; defaults to `<provider.name>:<model>`. */
  modelLabel?: string;
  tools: readonly AnyTool[];
  /** MCP tools (`mcp__server__tool`): they follow the built-ins, sorted by name. See setMcpTools(). */
  mcpTools?: readonly AnyTool[];
  /** The authority asked before every tool call. */
  canUseTool: CanUseTool;
  cwd: string;
  /** Defaults to a new random id. Pass the old id with `initialMessages` to resume. */
  sessionId?: string;
  /** Conversation to continue from (a loaded transcript). */
  initialMessages?: readonly Message[];
  /** Model requests allowed per submitted prompt. */
  maxTurns?: number;
  maxOutputTokens?: number;
  /** How the model may think (Anthropic's thinking budget); absent: the model's default. */
  thinking?: ThinkingSetting;
  /**
   * The model tools' side queries ask (WebFetch reading a page): a model id of the same provider.
   * Default: the provider's small fast model (src/loop/side-query.ts), else the session's model.
   */
  smallFastModel?: string;
  /**
   * What to assume of the model beyond the built-in table (src/models/catalog.ts): its window,
   * output limit, price. Fields left out keep the table's (or the provider default's) figures.
   */
  modelInfo?: ModelOverride;
  /**
   * Stop once the session has spent this many USD (`error_max_budget_usd`). Refused at creation
   * when the model's price is unknown: a budget that cannot be measured would never stop anything.
   */
  maxBudgetUsd?: number;
  /** Added at the end of the built-in system prompt. */
  appendSystemPrompt?: string;
  /** Replaces the built-in system prompt entirely (a string, or a builder that sees the tool split). */
  systemPrompt?: string | SystemPromptBuilder;
  /**
   * A string systemPrompt is followed by the memory files and appendSystemPrompt, as Claude Code's
   * --system-prompt is (the CLI flag; not the SDK's prompt, which is sent as given). Default false.
   */
  customPromptContext?: boolean;
  permissionContext?: ToolPermissionContext;
  /** Initial values of AppState fields (src/tool/app-state.ts), e.g. a restored task list. */
  appState?: Partial<AppState>;
  /** True when nobody can answer a permission prompt. Default true. */
  isNonInteractive?: boolean;
  /** True when the process ends once its prompt is answered (`warden -p`); see ToolUseContext. */
  endsWithPrompt?: boolean;
  /**
   * A lead whose teammates still work keeps its prompt running and goes on with their messages
   * (src/loop/team-wait.ts). Default: as isNonInteractive (a person at the prompt is not blocked).
   */
  waitForTeammates?: boolean;
  /** Starts the MCP servers an agent's frontmatter defines for its run; absent: such an agent is told it has none. */
  agentMcpServers?: AgentServerStarter;
  /**
   * Preloads the skills an agent's frontmatter names, running their `!`cmd`` lines in the agent's
   * context (src/tools/skill/preload.ts); absent: the skills' text is given as written.
   */
  preloadSkills?: AgentSkillPreloader;
  /** Runs each teammate outside this process (the CLI's `teammateMode: "process"`); absent: in process. */
  teammateRunner?: TeammateRunner;
  /**
   * Answers AskUserQuestion and approves ExitPlanMode's plans (callbacks a library supplies).
   * Without it those tools go through canUseTool's prompt, or tell the model to go on alone.
   */
  userDialog?: UserDialog;
  /** The fleet the session's tools may submit jobs to (ToolUseContextOptions.fleet). */
  fleet?: FleetAccess;
  /** The editor driving the session over ACP: its files and terminals (ToolUseContextOptions.editor). */
  editor?: EditorAccess;
  verbose?: boolean;
  /** Write the transcript under the user's data folder. Default true. */
  transcript?: boolean;
  /** Write initialMessages into this session's transcript (a fork continues a conversation under a new id). */
  recordInitialMessages?: boolean;
  /** Read AGENTS.md / CLAUDE.md memory files. Default true. */
  loadMemory?: boolean;
  /**
   * Told when memory files import files from outside the project that were left out (not
   * approved for this project: config/memory-approval.ts). Default: nothing is said.
   */
  onMemoryNotice?: (notice: string) => void;
  /** Reminder kinds of the library user's own, asked before each request after the built-in ones. */
  attachmentSources?: readonly AttachmentSource[];
  /** When the context strategies fire (defaults from the model's window). */
  contextManagement?: ContextManagementOptions;
  /** The clock: the system prompt's date and the date-change reminder read it (tests move it). */
  now?: () => Date;
  /** A reminder source that failed (its reminder was skipped); default: ignored. */
  onAttachmentError?: (kind: string, error: unknown) => void;
  /**
   * Called after each change of the session's AppState (by a tool, a mode switch, the UI), with
   * the new state: for what outside the loop follows it (MCP roots follow the working folders).
   */
  onAppStateChange?: (state: AppState) => void;
}
