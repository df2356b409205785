// An ask the rules and mode leave open, put to the person in their editor: allow once, always
// allow (with the rule the engine suggests, saved where the engine saves "don't ask again"), or
// reject. A cancelled request (the prompt was cancelled) is a deny.
import type {
  PermissionOption,
  RequestPermissionRequest,
  ToolCallContent,
  ToolCallUpdate,
} from "@agentclientprotocol/sdk/unstable";
import { type AskHandler, type AskResponse, alwaysAllowUpdates } from "../../permissions/engine/index.js";
import { describeReason, formatRule } from "../../permissions/rules/index.js";
import type { PermissionAsk, PermissionUpdate } from "../../tool/permission-types.js";
import { proposedChange, toolKind, toolLocations, toolTitle } from "./tool-calls.js";

function alwaysLabel([first, ...more]: readonly [PermissionUpdate, ...PermissionUpdate[]]): string {
  const what = (update: PermissionUpdate) => {
    switch (update.type) {
      case "addRules":
        return update.rules.map(formatRule).join(", ");
      case "addDirectories":
        return `files in ${update.directories.join(", ")}`;
      case "setMode":
        return undefined;
    }
  };
  if (first.type === "setMode") return `Allow, and switch to ${first.mode} mode`;
  return `Always allow ${[first, ...more].map(what).filter(Boolean).join(" and ")}`;
}

/**
 * What the person must see to answer, beyond the call's input: what the ask carries after its first
 * line (a plan that waits for approval, which lives in the plan file, not in the call's input) and
 * the edit a command would make (an in-place sed), as a diff the editor shows.
 */
function askContent(ask: PermissionAsk): ToolCallContent[] {
  const content: ToolCallContent[] = [];
  const carried = ask.message.split("\n").slice(1).join("\n").trim();
  if (carried !== "") content.push({ type: "content", content: { type: "text", text: carried } });
  const edit = ask.editPreview;
  if (edit) content.push({ type: "diff", path: edit.filePath, oldText: edit.oldText, newText: edit.newText });
  return content;
}

export interface EditorPermissionChannel {
  /** Sends session/request_permission and waits for the editor's answer. */
  request(
    params: RequestPermissionRequest,
  ): Promise<{ outcome: "cancelled" } | { outcome: "selected"; optionId: string }>;
  /** Called before the request so the editor already lists the call it is about. */
  announce(toolUseId: string, name: string, input: Record<string, unknown>): Promise<void>;
  /** Called once the person allowed the call: it runs now, no longer waits for approval. */
  allowed(toolUseId: string): Promise<void>;
}

export function editorAskHandler(sessionId: string, channel: EditorPermissionChannel): AskHandler {
  return async (request): Promise<AskResponse> => {
    const input = request.input as Record<string, unknown>;
    await channel.announce(request.toolUseId, request.tool.name, input);
    const [first, ...more] = alwaysAllowUpdates(request.ask.suggestions);
    const always = first ? ([first, ...more] as const) : undefined;
    const options: PermissionOption[] = [
      { optionId: "allow_once", name: "Allow", kind: "allow_once" },
      ...(always ? [{ optionId: "allow_always", name: alwaysLabel(always), kind: "allow_always" as const }] : []),
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ];
    const reason = request.ask.decisionReason ? describeReason(request.ask.decisionReason) : undefined;
    const toolCall: ToolCallUpdate = {
      toolCallId: request.toolUseId,
      title: toolTitle(request.tool.name, input),
      kind: toolKind(request.tool.name),
      status: "pending",
      rawInput: input,
      locations: toolLocations(input),
    };
    const content = [...proposedChange(request.tool.name, input), ...askContent(request.ask)];
    if (content.length > 0) toolCall.content = content;
    const answer = await channel.request({
      sessionId,
      toolCall,
      options,
      ...(reason || request.ask.message ? { _meta: { reason: reason ?? request.ask.message } } : {}),
    });
    if (answer.outcome === "cancelled") return { behavior: "deny", message: "The prompt was cancelled in the editor." };
    if (answer.optionId === "allow_once") {
      await channel.allowed(request.toolUseId);
      return { behavior: "allow" };
    }
    if (answer.optionId === "allow_always" && always) {
      await channel.allowed(request.toolUseId);
      return { behavior: "allow", updates: [...always] };
    }
    return { behavior: "deny", message: "The user rejected this tool call in the editor." };
  };
}
