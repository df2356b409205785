// The lines a lead and a teammate running as its own process (`warden teammate`) exchange: one JSON
// object a line, the lead's on the child's stdin, the child's on its stdout. The team's files (task
// list, mailboxes, team file, the teammate's sidechain) are shared on disk; only what cannot go
// through them travels here: what the child is (the spec), the lead's word on each of the child's
// tool calls, the child's state and spending, and the lead's order to stop.
import type { ContextManagementOptions } from "../../context/thresholds.js";
import type { Message, Usage } from "../../messages/types.js";
import type { ModelInfo } from "../../models/resolve.js";
import type { AgentDefinition } from "../../tool/agents.js";
import type {
  PermissionDecision,
  PermissionMode,
  PreToolUseHookDecision,
  ToolPermissionContext,
} from "../../tool/permission-types.js";
import type { TeamContext, TeammateState } from "../../tool/team.js";
import type { SessionSpec } from "../session/spec.js";

/** The first line the lead writes: everything the child needs to become the teammate. */
export interface TeammateSpec {
  type: "spec";
  /**
   * The lead's session spec (session/spec.ts), made into the child's there (no prompt, no resume,
   * no transcript of its own) and read back by the same schema.
   */
  config: SessionSpec;
  /** The lead's permission context (rules, directories); its word on each call is the lead's own anyway. */
  permissionContext: ToolPermissionContext;
  /** The lead session's: the sidechain is filed under its id, the prompt states its date. */
  session: {
    /** The lead's model (`provider:model`), the teammate's unless its definition or call chose another. */
    modelLabel: string;
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

/** The child asks the lead about one tool call; the lead's authority decides, as for its own calls. */
export interface PermissionQuestion {
  type: "permission";
  id: number;
  tool: string;
  input: Record<string, unknown>;
  toolUseId: string;
  /** The teammate's mode now (plan mode ends on the lead's approval); the lead never lets it widen its own. */
  mode: PermissionMode;
  planFilePath?: string;
  /** The teammate's shell directory, which path checks of Bash resolve against. */
  cwd?: string;
  preToolUseDecision?: PreToolUseHookDecision;
}

export type ChildLine =
  | { type: "running" }
  | { type: "state"; state: TeammateState }
  | PermissionQuestion
  | { type: "usage"; info: ModelInfo; usage: Usage };

export type LeadLine =
  | TeammateSpec
  | { type: "decision"; id: number; decision: PermissionDecision }
  | { type: "stop"; reason: string };

export function encodeLine(line: ChildLine | LeadLine): string {
  return `${JSON.stringify(line)}\n`;
}

/** A line that is not one of ours (a stray write of a library) is ignored rather than fatal. */
export function decodeLine<T extends { type: string }>(text: string): T | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
      ? (value as T)
      : undefined;
  } catch {
    return undefined;
  }
}
