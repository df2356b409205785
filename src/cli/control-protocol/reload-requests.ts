// The SDK's reload_* requests. reload_skills reads the skill and command folders again: the
// session's catalog (which the init line and initialize list) becomes the new one, the Skill tool
// is offered once there is a skill to run, and the model hears of the change through that
// tool's own listing. reload_plugins reads the skills and commands again (the plugins' among them)
// and lists the plugins the session started with: their hooks, agents and servers are chosen when
// a session starts (`/plugin reload` reopens it); reload_output_styles is refused: Warden has no
// output styles beyond its default.
import { anySkillFolder } from "../../config/skills/locations.js";
import { catalogTrust } from "../../config/skills/types.js";
import { builtInCatalog } from "../../tools/agent/catalog.js";
import { pluginLines } from "../session/init-info.js";
import { createLiveSkillTool } from "../session/skills-setup.js";
import type { JsonObject } from "./channel.js";
import { slashCommands } from "./slash-commands.js";
import type { StreamState } from "./stream-state.js";

/** The catalog as the folders hold it now (trust as decided when the session started). */
async function readCatalog(state: StreamState) {
  const { built } = state;
  const cwd = built.plan.config.cwd;
  const trust = catalogTrust(built.skills.catalog);
  if (!anySkillFolder(cwd, trust.pluginFolders)) return { skills: [], commands: [], ...trust, warnings: [] };
  const { discoverSkills } = await import("../../config/skills/discover.js");
  return discoverSkills({ cwd, ...trust });
}

/** Reads the skills again and puts them in force; returns them as the SDK lists commands. */
export async function reloadSkills(state: StreamState): Promise<JsonObject[]> {
  const { built } = state;
  const { session, plan } = built;
  const catalog = await readCatalog(state);
  for (const warning of catalog.warnings) state.warn(warning);
  const { modelInvocableSkills } = await import("../../tools/skill/listing.js");
  const hadSkillTool = session.tools.some((tool) => tool.name === "Skill");
  let tools = built.skills.tools;
  // The model hears of the change from the Skill tool's own listing, at the next request: a new
  // tool (deferred: the requests' tools stay as they were until ToolSearch loads it) lists the
  // skills, and one already there sees the folders changed and sends the new list.
  if (!hadSkillTool && modelInvocableSkills(catalog).length > 0) {
    tools = [await createLiveSkillTool(plan.config.cwd, catalog, { deferred: true })];
    session.addTools(tools);
  }
  built.skills = { catalog, tools };
  return catalog.skills.map((skill) => ({
    name: skill.name,
    description: skill.description,
    argumentHint: skill.argumentHint ?? "",
  }));
}

export async function handleReloadRequest(request: JsonObject, state: StreamState): Promise<JsonObject | undefined> {
  switch (request.subtype) {
    case "reload_skills":
      return { skills: await reloadSkills(state) };
    case "reload_output_styles":
      throw new Error(
        'reload_output_styles: Warden has no output styles (only "default"), so there is nothing to reload',
      );
    case "reload_plugins": {
      if (Array.isArray(request.add_plugins) && request.add_plugins.length > 0) {
        throw new Error(
          "reload_plugins: add_plugins is not supported (start the session with --plugin-dir, or install the plugin with `warden plugin install`); nothing was reloaded",
        );
      }
      // What Warden has of a plugin's parts: skills and commands, read again.
      await reloadSkills(state);
      const { handleMcpRequest } = await import("./mcp-requests.js");
      const status = await handleMcpRequest({ subtype: "mcp_status" }, state);
      return {
        commands: slashCommands(state),
        agents: (state.built.agentCatalog ?? builtInCatalog()).agents.map((a) => ({
          name: a.agentType,
          description: a.whenToUse ?? "",
        })),
        plugins: pluginLines(state.built.plan.permissions.settings),
        mcpServers: status?.mcpServers ?? [],
        error_count: 0,
      };
    }
    default:
      return undefined;
  }
}
