// An assistant message's content as the Messages API shapes it, for the lines a program reads
// (stream-json, the Agent SDK): Warden's own bookkeeping on a block (invalidInput: the argument
// text of a call that was not JSON) stays in the session, so a program that sends the message on
// to the API is not refused for a field the API does not know.
import type { AssistantContentBlock } from "../../messages/types.js";

export function apiBlock(block: AssistantContentBlock): AssistantContentBlock {
  if (block.type !== "tool_use" || block.invalidInput === undefined) return block;
  const { invalidInput: _kept, ...rest } = block;
  return rest;
}

export function apiContent(content: readonly AssistantContentBlock[]): AssistantContentBlock[] {
  return content.map(apiBlock);
}
