// `--permission-prompt-tool mcp__server__tool`: an ask the rules and modes leave open goes to that
// MCP tool, as in Claude Code. The tool gets `{ tool_name, input, tool_use_id }` and answers with
// one text block holding JSON: `{"behavior":"allow","updatedInput":{...}}` or
// `{"behavior":"deny","message":"..."}`. Anything else (no such tool, an error, text that is not
// such an answer) is a refusal that says why: no answer is no permission.
import type { HeadlessAskOptions } from "../../permissions/engine/ask-handlers.js";
import { type AskHandler, type AskResponse, createHeadlessAskHandler } from "../../permissions/engine/index.js";
import type { CanUseTool, ToolInput } from "../../tool/types.js";
import { isMcpPromptToolName } from "./spec-rules.js";

// The prompt tool is called by Warden, not by the model: nothing is asked of anyone for it.
const noNestedCalls: CanUseTool = async (tool) => {
  const reason = `${tool.name} may not be called from the permission prompt tool`;
  return { behavior: "deny", message: reason, decisionReason: { type: "tool", reason } };
};

/** `warn` tells the person once that the tool is missing (every ask is refused then). */
export function mcpPromptToolAskHandler(toolName: string, warn: (message: string) => void): AskHandler {
  let warned = false;
  return async (request): Promise<AskResponse> => {
    const refuse = (why: string): AskResponse => ({
      behavior: "deny",
      message: `Permission to use ${request.tool.name} was denied: the permission prompt tool ${toolName} ${why}`,
    });
    const promptTool = request.context.options.tools.find((tool) => tool.name === toolName);
    if (!promptTool) {
      const offered = request.context.options.tools.filter((tool) => tool.mcpInfo).map((tool) => tool.name);
      const why = `is not among this session's MCP tools (${offered.length > 0 ? offered.join(", ") : "none"}); check --mcp-config.`;
      if (!warned) warn(`--permission-prompt-tool: ${toolName} ${why} Every call that needs approval is refused.`);
      warned = true;
      return refuse(why);
    }
    let text: string;
    try {
      const result = await promptTool.call(
        { tool_name: request.tool.name, input: request.input, tool_use_id: request.toolUseId },
        request.context,
        noNestedCalls,
        undefined,
      );
      const block = promptTool.mapToolResult(result.data, request.toolUseId);
      const content = typeof block.content === "string" ? [{ type: "text", text: block.content }] : block.content;
      text = (content ?? [])
        .flatMap((part) => (part.type === "text" ? [part.text] : []))
        .join("")
        .trim();
      if (block.is_error) return refuse(`failed: ${text || "(no message)"}`);
    } catch (error) {
      return refuse(`failed: ${(error as Error).message}`);
    }
    return answerOf(text, refuse);
  };
}

function answerOf(text: string, refuse: (why: string) => AskResponse): AskResponse {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return refuse(`did not answer with JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    return refuse(`answered ${JSON.stringify(answer)}, not an object with "behavior"`);
  }
  const { behavior, updatedInput, message } = answer as Record<string, unknown>;
  if (behavior === "allow") {
    const isInput = typeof updatedInput === "object" && updatedInput !== null && !Array.isArray(updatedInput);
    return { behavior: "allow", ...(isInput && { updatedInput: updatedInput as ToolInput }) };
  }
  if (behavior === "deny") {
    return {
      behavior: "deny",
      message: typeof message === "string" && message !== "" ? message : "Denied by the permission prompt tool",
    };
  }
  return refuse(`answered behavior ${JSON.stringify(behavior)}, neither "allow" nor "deny"`);
}

/** Who settles a headless session's asks: the named MCP tool, or nobody (denied with a reason). */
export function headlessAskHandler(
  promptTool: string | undefined,
  options: HeadlessAskOptions,
  warn: (message: string) => void,
): AskHandler {
  if (promptTool !== undefined && isMcpPromptToolName(promptTool)) return mcpPromptToolAskHandler(promptTool, warn);
  return createHeadlessAskHandler(options);
}
