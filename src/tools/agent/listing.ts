// `agent_listing`: the agents the model may pass as subagent_type reach it as a reminder, not in
// the Agent tool's description, so a new agent file (or one that stops loading) changes a message
// of the conversation instead of the cached prefix of every request. Told before the first request,
// again when the list changes, and put back after a compaction.
import type { AgentCatalog, AgentDefinition } from "../../tool/agents.js";
import type { AttachmentContext, AttachmentSource } from "../../tool/types.js";
import { sessionAgentCatalog } from "./catalog.js";

function toolsNote(agent: AgentDefinition): string {
  // Short on purpose: the listing is in the first request of every session.
  const allowed = agent.tools && !agent.tools.includes("*") ? agent.tools.join(", ") : "all";
  const denied = agent.disallowedTools?.length ? ` but ${agent.disallowedTools.join(", ")}` : "";
  return `${allowed}${denied}`;
}

export function renderAgentListing(catalog: AgentCatalog): string {
  const lines = catalog.agents.map((agent) => `- ${agent.agentType}: ${agent.whenToUse} (Tools: ${toolsNote(agent)})`);
  return `Agent types available to the Agent tool (pass one as subagent_type):\n${lines.join("\n")}`;
}

function listingFor(ctx: AttachmentContext): string | undefined {
  // A subagent cannot spawn agents (the Agent tool is not in its pool).
  if (!ctx.context.options.tools.some((tool) => tool.name === "Agent")) return undefined;
  return renderAgentListing(sessionAgentCatalog(ctx.context));
}

/**
 * A resumed session already told the model its list (AppState starts empty on --resume): the
 * listing is found in the conversation instead of being sent again.
 */
function listingInConversation(ctx: AttachmentContext, text: string): string | undefined {
  for (const message of ctx.context.messages) {
    if (message.role !== "user" || !message.isMeta || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "text" && block.text.includes(text)) return text;
    }
  }
  return undefined;
}

export const agentListingSource: AttachmentSource = {
  kind: "agent_listing",
  collect(ctx) {
    const text = listingFor(ctx);
    if (text === undefined) return undefined;
    const sent = ctx.context.getAppState().agentListingSent ?? listingInConversation(ctx, text);
    if (text === sent) {
      if (ctx.context.getAppState().agentListingSent === undefined)
        ctx.context.setAppState((state) => ({ ...state, agentListingSent: text }));
      return undefined;
    }
    ctx.context.setAppState((state) => ({ ...state, agentListingSent: text }));
    return [{ text: sent === undefined ? text : `The list of agents changed.\n${text}` }];
  },
  afterCompaction(ctx) {
    return listingFor(ctx);
  },
};
