// A plain subagent continued after it ended: SendMessage names it (its agent id, or the `name` its
// Agent call gave it) and it goes on from its sidechain transcript with the message as its next
// user turn, in the background: a task the parent is notified of when it ends (TaskOutput reads
// it, TaskStop stops it), under its old agent id and sidechain, with the tools, model and
// permission mode its definition gives it now. Teammates are not this (their mailbox wakes them);
// nor is a fork (its sidechain holds only what came after the parent's conversation). Loaded by
// SendMessage only when a recipient is not a team member.
import { loadSidechainMessages, readSidechains, type SidechainRecord } from "../../session/sidechains.js";
import { backgroundTasks } from "../../tasks/registry.js";
import type { CanUseTool, ToolUseContext } from "../../tool/types.js";
import { findAgent, sessionAgentCatalog } from "./catalog.js";
import { type AgentToolOutput, buildSubagentRequest, startInBackground } from "./tool.js";

/** The session's plain subagent named `to` (agent id, else the newest with that name), if any. */
export function findEndedAgent(to: string, context: ToolUseContext): SidechainRecord | undefined {
  const dir = context.options.sessionDir;
  if (dir === undefined) return undefined;
  const plain = readSidechains(dir).filter((record) => record.teamName === undefined);
  return plain.find((record) => record.agentId === to) ?? plain.filter((record) => record.name === to).at(-1);
}

/** Why the agent cannot be continued now, or undefined when it can. */
export function continueProblem(record: SidechainRecord, context: ToolUseContext): string | undefined {
  const who = record.name ? `${record.name} (${record.agentId})` : record.agentId;
  if (context.agentId !== undefined) return "Only the main agent continues the subagents it started.";
  if (record.fork) return `Agent ${who} is a fork: it cannot be continued. Start a new agent instead.`;
  const task = record.task ? backgroundTasks(context).get(record.task.id) : undefined;
  if (task?.status === "running") {
    return `Agent ${who} is still running (task ${task.id}): you will be told when it ends; message it after that.`;
  }
  if (!findAgent(sessionAgentCatalog(context), record.agentType)) {
    return `Agent ${who} was a ${record.agentType} agent, a type this session no longer has.`;
  }
  return undefined;
}

/** Starts the agent again in the background with `message`; returns what the Agent tool would have. */
export function continueAgent(
  record: SidechainRecord,
  message: string,
  context: ToolUseContext,
  canUseTool: CanUseTool,
): AgentToolOutput & { warnings: string[] } {
  const { messages, warnings } = loadSidechainMessages(record.path);
  if (messages.length === 0) throw new Error(`the transcript of agent ${record.agentId} holds no conversation`);
  const request = {
    ...buildSubagentRequest(
      {
        description: record.description || `agent ${record.agentId}`,
        prompt: message,
        subagent_type: record.agentType,
        run_in_background: true,
        ...(record.name !== undefined ? { name: record.name } : {}),
      },
      context,
      canUseTool,
    ),
    agentId: record.agentId,
    history: messages,
    followUp: message,
    background: true,
  };
  if (record.model !== undefined) request.modelSpec = record.model;
  const host = context.options.subagents;
  if (!host) throw new Error("Subagents cannot run in this session (no subagent host).");
  return { ...startInBackground(request, context, host), warnings };
}
