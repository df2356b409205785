// TeamDelete: stops the team's teammates that still run (the session's team runtime), then removes
// the team's folder (team file, mailboxes, task list, plans) and the lead's team context.
import * as z from "zod";
import { deleteTeamFiles } from "../../session/team-files.js";
import { buildTool } from "../../tool/build-tool.js";
import { TEAM_DELETE_PROMPT, TEAM_DELETE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() => z.strictObject({}));

export type TeamDeleteInput = z.infer<typeof inputSchema>;

export interface TeamDeleteOutput {
  teamName: string;
  /** Teammates that were still running and were stopped. */
  stopped: string[];
}

export const TeamDeleteTool = buildTool<TeamDeleteInput, TeamDeleteOutput>({
  name: TEAM_DELETE_TOOL_NAME,
  searchHint: "delete agent team clean up teammates",
  shouldDefer: true,
  subagentAccess: "none",
  maxResultSizeChars: 2_000,
  inputSchema,
  prompt: async () => TEAM_DELETE_PROMPT,
  description: async () => "Delete the team",
  isReadOnly: () => true,
  autoModeSafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),

  async validateInput(_input, context) {
    const team = context.getAppState().team;
    if (!team?.isLead) {
      return {
        result: false,
        message: team ? "Only the team lead can delete the team." : "You lead no team: there is nothing to delete.",
        errorCode: 1,
      };
    }
    return { result: true };
  },

  async call(_input, context) {
    const team = context.getAppState().team;
    if (!team) throw new Error("You lead no team.");
    const runtime = context.options.subagents?.teams;
    const stopped = (runtime?.members(team.teamName) ?? []).filter((m) => m.state !== "stopped").map((m) => m.name);
    await runtime?.stop(team.teamName);
    deleteTeamFiles(team.dir);
    // The session's own list is opened again on the next Task call.
    context.setAppState((prev) => ({ ...prev, team: undefined, taskStore: undefined }));
    return { data: { teamName: team.teamName, stopped } };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Team "${output.teamName}" deleted with its task list and mailboxes.${output.stopped.length ? ` Stopped teammates that were still running: ${output.stopped.join(", ")}.` : ""}`,
  }),
});
