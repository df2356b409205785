// What a lead and its process teammate (`warden teammate`) say to each other beyond the Agent
// SDK's stream-json control protocol they both speak (../control-protocol/channel.ts): the
// `initialize` request carries the teammate's session spec (serialised by ../session/spec-wire.ts)
// and its assignment; each tool call is a `can_use_tool` request the lead answers; `interrupt`
// stops it; its state, spending and refused calls come back as `system` messages. The team's
// files (task list, mailboxes, team file, the teammate's sidechain) are shared on disk; only what
// cannot go through them travels here.
import type { ContextManagementOptions } from "../../context/thresholds.js";
import type { Message } from "../../messages/types.js";
import type { AgentDefinition } from "../../tool/agents.js";
import type { PermissionMode, PreToolUseHookDecision, ToolPermissionContext } from "../../tool/permission-types.js";
import type { TeamContext } from "../../tool/team.js";

/** The command line a teammate runs with (after `warden teammate`): the SDK's protocol, nothing else. */
export const TEAMMATE_ARGS = ["--input-format", "stream-json", "--output-format", "stream-json"] as const;

/** The `initialize` request's fields beyond its subtype: everything the child needs to become the teammate. */
export interface TeammateInitialize {
  /** The child's SessionSpec as spec-wire wrote it: the lead's, made headless with no transcript of its own. */
  session_spec: string;
  /** The lead's permission context (rules, directories); its word on each call is the lead's own anyway. */
  permission_context: ToolPermissionContext;
  /** The lead session's: the sidechain is filed under its id, the prompt states its date. */
  lead: {
    sessionId: string;
    sessionCwd: string;
    startDate: string;
    transcripts: boolean;
    loadMemory: boolean;
    maxOutputTokens?: number;
    contextManagement?: ContextManagementOptions;
  };
  teammate: {
    agentId: string;
    name: string;
    team: TeamContext;
    definition: AgentDefinition;
    description: string;
    prompt: string;
    modelSpec?: string;
    permissionMode: PermissionMode;
    maxTurns?: number;
    cwd?: string;
    /** The tools the lead decided the teammate has, by name: the child offers no other. */
    tools: string[];
    /** Taken up again: the conversation it goes on from. */
    history?: Message[];
  };
}

/**
 * A `can_use_tool` request's fields beyond the SDK's (tool_name, input, tool_use_id): what the
 * lead's authority needs to decide the teammate's call as it would an in-process teammate's.
 */
export interface TeammateCallContext {
  agent_id: string;
  /** The teammate's mode now (plan mode ends on the lead's approval); the lead never lets it widen its own. */
  permission_mode: PermissionMode;
  plan_file_path?: string;
  /** The teammate's shell directory, which path checks of Bash resolve against. */
  cwd?: string;
  pre_tool_use_decision?: PreToolUseHookDecision;
}

/** The `system` messages' subtypes a teammate writes (besides the SDK's). */
export const TEAMMATE_STATE = "teammate_state";
export const TEAMMATE_USAGE = "teammate_usage";
/** A call the teammate made that was refused: the lead's result lists it (`permission_denials`). */
export const PERMISSION_DENIAL = "permission_denial";
/**
 * The teammate's control request when its turn ended well and it would go idle: the lead runs its
 * TeammateIdle hooks and answers `continue_with` (keep working with this feedback), `stop`, and
 * `errors` (the hooks' failures, for the teammate's transcript).
 */
export const TEAMMATE_IDLE = "teammate_idle";
