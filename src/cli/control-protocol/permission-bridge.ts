// `--permission-prompt-tool stdio`: an ask the rules and modes leave open goes to the SDK as a
// `can_use_tool` control request (its canUseTool callback answers). An allow may change the input
// and add permission rules; a deny carries the message the model reads, and may end the turn.
import type { AskHandler, AskResponse } from "../../permissions/engine/index.js";
import type { PermissionUpdate } from "../../tool/permission-types.js";
import type { ToolInput } from "../../tool/types.js";
import type { ControlChannel, JsonObject } from "./channel.js";

export function sdkAskHandler(channel: ControlChannel): AskHandler {
  return async (request): Promise<AskResponse> => {
    const reason = request.ask.decisionReason;
    let answer: JsonObject;
    try {
      answer = await channel.request(
        {
          subtype: "can_use_tool",
          tool_name: request.tool.name,
          input: request.input,
          permission_suggestions: request.ask.suggestions ?? [],
          decision_reason: request.ask.message,
          ...(reason?.type === "rule" || reason?.type === "mode" ? { decision_reason_type: reason.type } : {}),
          ...(request.tool.mcpInfo && { mcp_server: { name: request.tool.mcpInfo.serverName } }),
          tool_use_id: request.toolUseId,
        },
        request.context.abortController.signal,
      );
    } catch (error) {
      // No answer is no permission.
      return { behavior: "deny", message: `The SDK did not allow this call: ${(error as Error).message}` };
    }
    if (answer.behavior === "allow") {
      // A new input that is not an object cannot be run, and running the old one instead would
      // run what the callback meant to change.
      if (answer.updatedInput !== undefined && !isObject(answer.updatedInput)) {
        return {
          behavior: "deny",
          message: "canUseTool allowed the call with an updatedInput that is not an object, so it was not run.",
        };
      }
      const updatedInput = isObject(answer.updatedInput) ? (answer.updatedInput as ToolInput) : undefined;
      const updates = Array.isArray(answer.updatedPermissions) ? supportedUpdates(answer.updatedPermissions) : [];
      return { behavior: "allow", ...(updatedInput && { updatedInput }), ...(updates.length > 0 && { updates }) };
    }
    if (answer.behavior !== "deny") {
      const given = JSON.stringify(answer.behavior) ?? "nothing";
      return {
        behavior: "deny",
        message: `canUseTool answered behavior ${given} (expected "allow" or "deny"), so the call was not run.`,
      };
    }
    const message = typeof answer.message === "string" && answer.message !== "" ? answer.message : "Denied by the SDK";
    // `interrupt: true` ends the turn once this call has its refusal as its result (the model reads
    // the message when the conversation goes on), not before: stopping the turn first gave the call
    // an "interrupted" result and lost the message.
    return { behavior: "deny", message, ...(answer.interrupt === true && { interrupt: true }) };
  };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const DESTINATIONS = new Set(["userSettings", "projectSettings", "localSettings", "session"]);

/** The updates the engine can apply; a rule for the command line only (`cliArg`) lasts the session. */
function supportedUpdates(raw: unknown[]): PermissionUpdate[] {
  const updates: PermissionUpdate[] = [];
  for (const item of raw) {
    if (!isObject(item)) continue;
    const destination = (
      DESTINATIONS.has(String(item.destination)) ? item.destination : "session"
    ) as PermissionUpdate["destination"];
    if (
      item.type === "addRules" &&
      Array.isArray(item.rules) &&
      (item.behavior === "allow" || item.behavior === "deny" || item.behavior === "ask")
    ) {
      const rules = item.rules.filter(isObject).flatMap((rule) =>
        typeof rule.toolName === "string"
          ? [
              {
                toolName: rule.toolName,
                ...(typeof rule.ruleContent === "string" && { ruleContent: rule.ruleContent }),
              },
            ]
          : [],
      );
      updates.push({ type: "addRules", behavior: item.behavior, rules, destination });
    } else if (item.type === "addDirectories" && Array.isArray(item.directories)) {
      updates.push({ type: "addDirectories", directories: item.directories.map(String), destination });
    } else if (item.type === "setMode" && typeof item.mode === "string") {
      updates.push({
        type: "setMode",
        mode: item.mode as Extract<PermissionUpdate, { type: "setMode" }>["mode"],
        destination,
      });
    }
  }
  return updates;
}
