// Subagents as the contract sees them: what an agent definition says (built-in, a user's or a
// project's `.warden/agents/*.md`, settings), and the host that runs one. The Agent tool
// (src/tools/agent/) decides which agent, which tools and which model; the host, given to every
// call in ToolUseContextOptions.subagents, runs the child's own query loop (src/loop/subagent/).
// Declared here so the tool never imports the loop and the loop never imports a tool.
import type { PermissionMode } from "./permission-types.js";

/** Where a definition came from; a later source overrides an earlier one of the same name. */
/** Where an agent came from; a plugin's agents are named `plugin:agent`. */
export type AgentSource = "built-in" | "user" | "project" | "settings" | "plugin";

export interface AgentDefinition {
  /** The name the model passes as subagent_type. */
  agentType: string;
  /** When to use this agent: what the model reads in the list of agents. */
  whenToUse: string;
  /** The agent's system prompt (the body of its markdown file). */
  systemPrompt: string;
  /** Tool names it may have; undefined or ['*']: every tool the layers above leave it. */
  tools?: string[];
  disallowedTools?: string[];
  /** 'inherit', an alias (sonnet, opus, haiku) or `provider:model`. */
  model?: string;
  /** Can only make the child stricter than its parent (see src/tools/agent/permissions.ts). */
  permissionMode?: PermissionMode;
  maxTurns?: number;
  /** Names of every MCP server the agent's frontmatter mentions (for the listing). */
  mcpServers?: string[];
  /**
   * The servers its frontmatter defines (raw, by name; checked when started): started for each
   * run of the agent and offered to it alone (src/loop/subagent/agent-mcp.ts). A name alone
   * means the session's server of that name, which every agent already has.
   */
  inlineMcpServers?: Readonly<Record<string, unknown>>;
  /**
   * Hooks that run only while this agent runs (its frontmatter's `hooks`, in settings' shape,
   * validated when the file was read); its `Stop` hooks run as SubagentStop.
   */
  hooks?: Readonly<Record<string, unknown>>;
  /** Skills whose whole text the agent starts with (its frontmatter's `skills`). */
  skills?: string[];
  /** A memory folder of its own that persists across runs (src/loop/subagent/agent-extras.ts). */
  memory?: "user" | "project" | "local";
  /** Always runs in the background. */
  background?: boolean;
  isolation?: "worktree";
  color?: string;
  /** Leaves the memory files (AGENTS.md, CLAUDE.md) out of its system prompt. */
  omitMemory?: boolean;
  source: AgentSource;
  /** The file it was read from (custom agents). */
  path?: string;
}

/** A definition that could not be loaded: the file and what is wrong with it. */
export interface AgentLoadIssue {
  path: string;
  reason: string;
}

/** Every agent a session can spawn, and what could not be loaded. */
export interface AgentCatalog {
  agents: AgentDefinition[];
  issues: AgentLoadIssue[];
  /** Set when project agents exist but were left out because the folder is not trusted. */
  untrustedProjectAgents?: string[];
}

/** The query source of a fork child: one of the two guards against forking again. */
export const FORK_QUERY_SOURCE = "agent:builtin:fork";
/** The tag a fork child's directive carries: the guard that survives in the messages. */
export const FORK_BOILERPLATE_TAG = "fork-boilerplate";
