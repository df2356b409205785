// The Agent tool's input, as the reference lists it.
import * as z from "zod";
import { PERMISSION_MODES, type PermissionMode } from "../../tool/permission-types.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import { AGENT_TOOL_NAME } from "./prompt.js";

export const agentInputSchema = prebuiltInputSchema(AGENT_TOOL_NAME, () =>
  z.strictObject({
    description: z.string().min(1).describe("3-5 words"),
    prompt: z.string().min(1).describe("The task"),
    subagent_type: z.string().min(1).optional(),
    model: z.string().min(1).optional().describe("sonnet, opus, haiku or provider:model"),
    run_in_background: z.boolean().optional(),
    name: z.string().min(1).optional(),
    team_name: z.string().min(1).optional(),
    mode: z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]).optional(),
    isolation: z.enum(["worktree", "remote"]).optional(),
    cwd: z.string().min(1).optional(),
  }),
);

export type AgentInput = z.infer<typeof agentInputSchema>;
