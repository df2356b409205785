// The provider-neutral conversation model. Shapes follow the Anthropic Messages API because it is
// the richest of the wire formats we speak; adapters translate to and from the others.

export interface TextBlock {
  type: "text";
  text: string;
}

export interface ImageBlock {
  type: "image";
  source: { type: "base64"; media_type: string; data: string };
}

export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature?: string;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  /**
   * Set by a provider adapter when the model's argument text was not a JSON object. `input` is
   * then `{}`, the tool must not run, and the tool_result tells the model what it sent and why it
   * was refused, so it can send the call again.
   */
  invalidInput?: { raw: string; error: string };
}

/** What a tool result may carry besides plain text. */
export type ToolResultContent = string | Array<TextBlock | ImageBlock>;

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
}

export type AssistantContentBlock = TextBlock | ThinkingBlock | ToolUseBlock;
export type UserContentBlock = TextBlock | ImageBlock | ToolResultBlock;
export type ContentBlock = AssistantContentBlock | UserContentBlock;

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "pause_turn";

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  /** Server-side tool use the provider counted (Anthropic's web search), billed per request. */
  server_tool_use?: { web_search_requests?: number };
}

export interface UserMessage {
  role: "user";
  content: UserContentBlock[];
  /** Marks messages the harness wrote (reminders, continue nudges), not the human. */
  isMeta?: boolean;
  /** The attachment kind that wrote this message (`edited_text_file`, `date_change`, ...), when one did. */
  attachment?: string;
}

export interface AssistantMessage {
  role: "assistant";
  content: AssistantContentBlock[];
  stopReason?: StopReason;
  usage?: Usage;
  model?: string;
}

export type Message = UserMessage | AssistantMessage;

export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

export function addUsage(total: Usage, more: Usage | undefined): Usage {
  if (!more) return total;
  return {
    input_tokens: total.input_tokens + more.input_tokens,
    output_tokens: total.output_tokens + more.output_tokens,
    cache_creation_input_tokens: (total.cache_creation_input_tokens ?? 0) + (more.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: (total.cache_read_input_tokens ?? 0) + (more.cache_read_input_tokens ?? 0),
  };
}

export function userText(text: string, isMeta = false): UserMessage {
  return isMeta
    ? { role: "user", content: [{ type: "text", text }], isMeta }
    : { role: "user", content: [{ type: "text", text }] };
}

export function toolUsesOf(message: AssistantMessage): ToolUseBlock[] {
  return message.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
}

export function textOf(message: Message): string {
  return message.content
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("");
}

/** Flattens tool-result content to the text a human or a log would read. */
export function toolResultText(content: ToolResultContent): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : `[image ${b.source.media_type}]`)).join("\n");
}
