// Teams as the contract sees them: who the running agent is in a team (AppState.team), the
// messages members send each other through their mailboxes, and the runtime that keeps teammates
// alive between turns (SubagentHost.teams, implemented in src/loop/subagent/). The files (team
// file, mailboxes, the shared task list) are src/session/team-files.ts and src/session/mailbox.ts;
// the tools are src/tools/team-create/, team-delete/ and send-message/. The runtime's interface
// (TeamRuntime, TeammateRequest) is in ./types.ts beside SubagentHost.

/** The lead's name in its team: what teammates write in SendMessage's `to`. */
export const TEAM_LEAD_NAME = "team-lead";

/** The running agent's place in a team (AppState.team): set for the lead by TeamCreate, for a teammate at spawn. */
export interface TeamContext {
  teamName: string;
  /** TEAM_LEAD_NAME for the lead, the teammate's own name otherwise. */
  memberName: string;
  isLead: boolean;
  /** The team's folder: team file, mailboxes, task list, teammates' plan files. */
  dir: string;
}

/** The structured messages of the reference (SendMessage) and those the runtime sends by itself. */
export type StructuredTeamMessage =
  | { type: "shutdown_request"; request_id: string; reason?: string }
  | { type: "shutdown_response"; request_id: string; approve: boolean; reason?: string }
  | { type: "plan_approval_request"; request_id: string; plan_file_path: string; plan: string }
  | { type: "plan_approval_response"; request_id: string; approve: boolean; feedback?: string }
  | { type: "idle_notification"; idle_reason: "available" | "interrupted" | "failed"; summary?: string }
  | { type: "task_assignment"; task_id: string; subject: string };

/** One message in a member's mailbox. */
export interface TeamMessage {
  id: string;
  from: string;
  /** Plain text, or a structured message (what `text` holds then is its JSON). */
  text: string;
  structured?: StructuredTeamMessage;
  /** The 5-10 word preview a plain message carries. */
  summary?: string;
  timestamp: string;
  read: boolean;
}

/** What a teammate is doing, as the runtime knows it. */
/** A teammate's own git worktree (Agent with isolation "worktree"): where it works, and what to clean up. */
export interface TeammateWorktree {
  path: string;
  branch: string;
  /** The commit it started from: changes are counted from it. */
  baseCommit: string;
  /** The main repository's root (where `git worktree remove` runs). */
  repoRoot: string;
}

export type TeammateState = "working" | "idle" | "stopped";

export interface TeammateStatus {
  name: string;
  agentId: string;
  state: TeammateState;
}

/** A name a member or a team may have: it names files, so only plain characters. */
export const TEAM_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Whether this agent runs as a teammate (not the lead, not a plain subagent). */
export function isTeammate(context: { getAppState(): { team?: TeamContext } }): boolean {
  const team = context.getAppState().team;
  return team !== undefined && !team.isLead;
}
