// Warden as the Agent SDK's executable: an MCP server's question (elicitation) goes to the SDK as
// an `elicitation` control request, which its `onElicitation` callback answers (the SDK itself
// declines when the program gave none). The answer is passed back to the server only when it is
// one the specification allows; no answer (stdin closed, an error, the call interrupted) is a
// decline, said on stderr, so the server is never left waiting.
import type { ElicitationRequest, ElicitResult } from "../../mcp/client-features/types.js";
import type { ControlChannel, JsonObject } from "./channel.js";

export function sdkElicitationHandler(
  channel: ControlChannel,
  warn: (message: string) => void,
): (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult> {
  return async (request, signal) => {
    let answer: JsonObject;
    try {
      answer = await channel.request(elicitationControlRequest(request), signal);
    } catch (error) {
      if (signal.aborted) return { action: "cancel" };
      warn(
        `MCP server "${request.server}" asked: ${request.params.message}; declined: the SDK did not answer (${(error as Error).message})`,
      );
      return { action: "decline" };
    }
    return resultOf(answer, request, warn);
  };
}

/** The SDK's `SDKControlElicitationRequest` for a server's question. */
export function elicitationControlRequest(request: ElicitationRequest): JsonObject {
  const { params } = request;
  if (params.mode === "url") {
    return {
      subtype: "elicitation",
      mcp_server_name: request.server,
      message: params.message,
      mode: "url",
      url: params.url,
      elicitation_id: params.elicitationId,
    };
  }
  const schema = params.requestedSchema;
  return {
    subtype: "elicitation",
    mcp_server_name: request.server,
    message: params.message,
    mode: "form",
    requested_schema: schema,
    // For hosts whose transport does not keep the order of an object's keys.
    property_order: Object.keys(schema.properties),
  };
}

function resultOf(answer: JsonObject, request: ElicitationRequest, warn: (message: string) => void): ElicitResult {
  const action = answer.action;
  if (action === "decline" || action === "cancel") return { action };
  if (action !== "accept") {
    warn(`MCP server "${request.server}": the SDK's answer has no valid action (${JSON.stringify(action)}); declined`);
    return { action: "decline" };
  }
  const content = answer.content;
  if (content === undefined || request.params.mode === "url") return { action };
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    warn(`MCP server "${request.server}": the SDK's accepted answer has content that is not an object; declined`);
    return { action: "decline" };
  }
  // Checked against the server's schema by the MCP client before it is sent (client-features/elicitation.ts).
  return { action, content: content as NonNullable<ElicitResult["content"]> };
}
