// The session's commands as the Agent SDK lists them (initialize, reload_skills, reload_plugins):
// /compact, then the custom commands and the skills of the session's catalog.
import type { JsonObject } from "./channel.js";
import type { StreamState } from "./stream-state.js";

/** The session's commands in the SDK's SlashCommand shape, as initialize lists them. */
export function slashCommands(state: StreamState): JsonObject[] {
  const catalog = state.built.skills.catalog;
  return [
    { name: "compact", description: "Summarise the conversation to free context", argumentHint: "[instructions]" },
    ...catalog.commands.map((c) => ({
      name: c.name,
      description: c.description ?? "",
      argumentHint: c.argumentHint ?? "",
    })),
    ...catalog.skills.map((s) => ({
      name: s.name,
      description: s.description ?? "",
      argumentHint: s.argumentHint ?? "",
    })),
  ];
}
