// SendMessage's input: a recipient, plain text or one of the reference's structured messages,
// and the summary a plain message needs.
import * as z from "zod";

const shutdownRequest = z.lazy(() =>
  z.strictObject({
    type: z.literal("shutdown_request"),
    reason: z.string().optional(),
  }),
);

const shutdownResponse = z.lazy(() =>
  z.strictObject({
    type: z.literal("shutdown_response"),
    request_id: z.string().min(1),
    approve: z.boolean(),
    reason: z.string().optional(),
  }),
);

const planApprovalResponse = z.lazy(() =>
  z.strictObject({
    type: z.literal("plan_approval_response"),
    request_id: z.string().min(1),
    approve: z.boolean(),
    feedback: z.string().optional(),
  }),
);

export const sendMessageInputSchema = z.lazy(() =>
  z.strictObject({
    to: z
      .string()
      .trim()
      .min(1)
      .describe('A teammate\'s name, "team-lead", "*" for everyone, or an ended subagent\'s id or name'),
    message: z.union([
      z.string().min(1),
      z.discriminatedUnion("type", [shutdownRequest, shutdownResponse, planApprovalResponse]),
    ]),
    summary: z.string().trim().min(1).optional().describe("5-10 words; required with a plain message"),
  }),
);

export type SendMessageInput = z.infer<typeof sendMessageInputSchema>;
