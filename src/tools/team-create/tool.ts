// TeamCreate: writes the team file in the session's folder with the lead as its first member
// (src/session/team-files.ts), and makes the team's task list the one the lead's Task tools use,
// so teammates started later share it.
import * as z from "zod";
import { createTeamFile, teamTaskStore } from "../../session/team-files.js";
import { buildTool } from "../../tool/build-tool.js";
import { TEAM_LEAD_NAME, TEAM_NAME_PATTERN } from "../../tool/team.js";
import { TEAM_CREATE_PROMPT, TEAM_CREATE_TOOL_NAME } from "./prompt.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    team_name: z.string().trim().min(1).describe("Letters, digits, - and _"),
    description: z.string().trim().min(1).optional().describe("What the team is for"),
    agent_type: z.string().trim().min(1).optional().describe("The lead's role, recorded in the team file"),
  }),
);

export type TeamCreateInput = z.infer<typeof inputSchema>;

export interface TeamCreateOutput {
  teamName: string;
  teamDir: string;
  taskListDir: string;
}

export const TeamCreateTool = buildTool<TeamCreateInput, TeamCreateOutput>({
  name: TEAM_CREATE_TOOL_NAME,
  searchHint: "create agent team teammates swarm",
  shouldDefer: true,
  subagentAccess: "none",
  maxResultSizeChars: 2_000,
  inputSchema,
  prompt: async () => TEAM_CREATE_PROMPT,
  description: async (input) => `Create team ${input?.team_name ?? ""}`.trim(),
  // It writes the session's own folder, nothing of the project.
  isReadOnly: () => true,
  autoModeSafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),

  async validateInput(input, context) {
    if (context.agentId !== undefined) {
      return { result: false, message: "Only the main session can create a team.", errorCode: 1 };
    }
    if (!TEAM_NAME_PATTERN.test(input.team_name)) {
      return {
        result: false,
        message: `"${input.team_name}" is not a valid team name: use 1-64 letters, digits, - and _, starting with a letter or digit.`,
        errorCode: 2,
      };
    }
    const current = context.getAppState().team;
    if (current) {
      return {
        result: false,
        message: `You already lead the team "${current.teamName}"; a session leads one team at a time. Delete it with TeamDelete first.`,
        errorCode: 3,
      };
    }
    return { result: true };
  },

  async call(input, context) {
    const team = createTeamFile(context.options.sessionDir, {
      name: input.team_name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      leadSessionId: context.options.sessionId,
      leadAgentType: input.agent_type ?? TEAM_LEAD_NAME,
      now: new Date(),
    });
    const store = teamTaskStore(team.dir);
    context.setAppState((prev) => ({ ...prev, team, taskStore: store }));
    return { data: { teamName: team.teamName, teamDir: team.dir, taskListDir: store.location } };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Team "${output.teamName}" created; you are its lead ("${TEAM_LEAD_NAME}"). The Task tools now work on the team's shared list (a new, empty one). Start teammates with Agent (team_name "${output.teamName}", a name, a prompt).`,
  }),
});
