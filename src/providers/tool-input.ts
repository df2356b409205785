import type { ToolUseBlock } from "../messages/types.js";

/**
 * Turns the argument text a model streamed for a tool call into a tool_use block. Models do send
 * broken JSON now and then (cut by max_tokens, a stray quote, small local models); that must not
 * crash the turn. The block then carries `input: {}` plus `invalidInput` with the raw text and the
 * parse error, and the tool-call path answers it with an error result instead of running the tool.
 */
export function toolUseFromArguments(id: string, name: string, argumentsText: string): ToolUseBlock {
  // No arguments at all is how several servers spell a call to a tool that takes none.
  if (argumentsText.trim() === "") return { type: "tool_use", id, name, input: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { type: "tool_use", id, name, input: {}, invalidInput: { raw: argumentsText, error: reason } };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const kind = Array.isArray(parsed) ? "an array" : parsed === null ? "null" : `a ${typeof parsed}`;
    return {
      type: "tool_use",
      id,
      name,
      input: {},
      invalidInput: { raw: argumentsText, error: `expected a JSON object, got ${kind}` },
    };
  }
  return { type: "tool_use", id, name, input: parsed as Record<string, unknown> };
}
