// SendUserMessage: a Markdown message for the user, with optional files and a status, delivered
// while the model works (the session's brief channel → a `brief` event: a stream-json line, the UI).
// Offered only when `--brief` or settings `brief: true` asks for it. Attachments are files the user
// is shown, so they pass the same read checks as Read: a deny rule on a path keeps it out.
import { stat } from "node:fs/promises";
import * as z from "zod";
import type { BriefMessage } from "../../tool/brief.js";
import { buildTool } from "../../tool/build-tool.js";
import type { PermissionResult } from "../../tool/permission-types.js";
import { sessionWorkingDirectory } from "../../tool/working-directory.js";
import { filePermission } from "../file-shared/path-permission.js";
import { resolveToolPath } from "../file-shared/paths.js";
import { BRIEF_PROMPT, BRIEF_TOOL_NAME } from "./prompt.js";

const MAX_ATTACHMENTS = 10;

const inputSchema = z.lazy(() =>
  z.strictObject({
    message: z.string().trim().min(1).describe("The message, in Markdown"),
    attachments: z
      .array(z.string())
      .max(MAX_ATTACHMENTS)
      .optional()
      .describe("Absolute paths of files to show with it"),
    status: z.enum(["normal", "proactive"]).default("normal").describe("normal: a reply; proactive: an unasked update"),
  }),
);

export type BriefInput = z.infer<typeof inputSchema>;

export const BriefTool = buildTool<BriefInput, BriefMessage>({
  name: BRIEF_TOOL_NAME,
  searchHint: "send the user a message progress update brief",
  maxResultSizeChars: 2_000,
  inputSchema,
  prompt: async () => BRIEF_PROMPT,
  description: async () => "Message the user",
  userFacingName: () => "Message",
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  autoModeSafe: true,
  toAutoClassifierInput: (input) => (input.attachments?.length ? `attach ${input.attachments.join(" ")}` : ""),

  withAbsolutePaths: (input, cwd) =>
    input.attachments
      ? {
          ...input,
          attachments: input.attachments.map((raw) => {
            const path = resolveToolPath(raw, cwd, "attachments");
            return path.ok ? path.path : raw;
          }),
        }
      : input,

  async validateInput(input, context) {
    for (const raw of input.attachments ?? []) {
      const path = resolveToolPath(raw, sessionWorkingDirectory(context), "attachments");
      if (!path.ok) return { result: false, message: path.message, errorCode: 1 };
      const info = await stat(path.path).catch(() => undefined);
      if (!info?.isFile()) {
        return { result: false, message: `Attachment ${path.path} is not a file that exists.`, errorCode: 2 };
      }
    }
    return { result: true };
  },

  async checkPermissions(input, context): Promise<PermissionResult<BriefInput>> {
    // The strictest answer over the attachments: one denied path denies, one that asks asks.
    let ask: PermissionResult<BriefInput> | undefined;
    for (const path of input.attachments ?? []) {
      const result = filePermission<BriefInput>("read", BRIEF_TOOL_NAME, path, context, "attachments");
      if (result.behavior === "deny") return result;
      if (result.behavior !== "allow" && !ask) ask = result;
    }
    return (
      ask ?? { behavior: "allow", decisionReason: { type: "tool", reason: "a message to the user changes nothing" } }
    );
  },

  async call(input, context) {
    const message: BriefMessage = {
      message: input.message,
      attachments: (input.attachments ?? []).map((raw) => {
        const path = resolveToolPath(raw, sessionWorkingDirectory(context), "attachments");
        return path.ok ? path.path : raw;
      }),
      status: input.status,
      sentAt: new Date().toISOString(),
    };
    context.channels.brief.send(message);
    return { data: message };
  },

  mapToolResult: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: `Message delivered to the user${output.attachments.length ? ` with ${output.attachments.length} attachment(s)` : ""}.`,
  }),
});
