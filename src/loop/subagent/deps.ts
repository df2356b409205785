// What a session lends its subagents: its provider and model, its clock and ledger, where its
// transcripts go. The session builds this once; ./run.ts reads it for every child.
import type { ContextManagementOptions } from "../../context/thresholds.js";
import type { UsageLedger } from "../../models/cost.js";
import type { ModelInfo } from "../../models/resolve.js";
import type { Provider } from "../../providers/types.js";
import type { AgentServerStarter } from "../../tool/agent-servers.js";
import type { AgentSkillPreloader } from "../../tool/agent-skills.js";
import type { TeammateState } from "../../tool/team.js";
import type { TeammateRequest, ToolUseContext } from "../../tool/types.js";
import type { QueryEvent } from "../events.js";

/**
 * Runs one teammate to its end (./teammate.ts in process, or a `warden teammate` child process the
 * CLI supplies): calls `request.onStart` once it runs, reports each change of state.
 */
export type TeammateRunner = (
  deps: SubagentDeps,
  request: TeammateRequest,
  parent: ToolUseContext,
  setState: (state: TeammateState) => void,
) => Promise<void>;

export interface SubagentDeps {
  provider: Provider;
  /** The main loop's model name (no provider prefix) and `provider:model` label. */
  model: string;
  modelLabel: string;
  modelInfo: ModelInfo;
  ledger: UsageLedger;
  sessionId: string;
  /** The session's own cwd (transcripts are filed under it). */
  sessionCwd: string;
  /** The date the system prompt states (YYYY-MM-DD). */
  startDate: string;
  now: () => Date;
  /** False: no sidechain transcripts (the session keeps none). */
  transcripts: boolean;
  /** False: memory files are never read (the session's own choice). */
  loadMemory: boolean;
  maxOutputTokens?: number;
  contextManagement?: ContextManagementOptions;
  /** Starts the MCP servers an agent's frontmatter defines (the CLI's session supplies it). */
  agentMcpServers?: AgentServerStarter;
  /** Preloads an agent's frontmatter skills, running their `!`cmd`` lines (the CLI's session supplies it). */
  preloadSkills?: AgentSkillPreloader;
  /** How teammates run when not in this process (the CLI's process mode); absent: in process. */
  teammateRunner?: TeammateRunner;
  /**
   * Each event of a foreground subagent's loop, as it happens, with the id of the Agent call it
   * runs for; its first prompt comes as a `user` event before its first request, and a `terminal`
   * event for the whole run comes last.
   */
  onForegroundEvent?: (parentToolUseId: string, event: QueryEvent) => void;
  /** The same for a background agent (run_in_background), whose Agent call has already returned. */
  onBackgroundEvent?: (parentToolUseId: string, event: QueryEvent) => void;
}
