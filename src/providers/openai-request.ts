// Converts our Anthropic-shaped conversation into Chat Completions messages. The differences that
// matter: the system prompt is a message; tool calls live on the assistant message; each tool
// result is its own `tool` message that must directly follow that assistant message; and a tool
// message can only hold text, so images a tool returned travel in a user message right after.
import type OpenAI from "openai";
import type { AssistantMessage, ImageBlock, TextBlock, ToolResultBlock, UserMessage } from "../messages/types.js";
import type { ModelRequest, ThinkingSetting } from "./types.js";

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type UserPart = OpenAI.Chat.ChatCompletionContentPart;

export interface OpenAIParamsOptions {
  /** api.openai.com wants max_completion_tokens; most compatible servers only know max_tokens. */
  useMaxCompletionTokens: boolean;
}

export function toOpenAIParams(
  request: ModelRequest,
  options: OpenAIParamsOptions,
): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  const params: OpenAI.Chat.ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toChatMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (options.useMaxCompletionTokens) params.max_completion_tokens = request.maxTokens;
  else params.max_tokens = request.maxTokens;
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => {
      const fn: OpenAI.FunctionDefinition = {
        name: tool.name,
        description: tool.description,
        parameters: tool.input_schema,
      };
      if (tool.strict) fn.strict = true;
      return { type: "function", function: fn };
    });
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  const effort = request.thinking && reasoningEffort(request.thinking);
  if (effort) params.reasoning_effort = effort;
  return params;
}

/**
 * Chat Completions has no token budget for thinking, only an effort level, so a budget (as
 * `--max-thinking-tokens` or the SDK's setMaxThinkingTokens gives it) becomes the level that
 * spends about that much: Claude Code's "think" (4,000) is low, "megathink" (10,000) medium,
 * "ultrathink" (31,999) high. Disabled and adaptive leave the model's default: the lowest level
 * differs between reasoning models (some have no "none", some no "minimal"), and models that do
 * not reason refuse the field, so a value that may fail the request is not guessed.
 */
export function reasoningEffort(thinking: ThinkingSetting): OpenAI.ReasoningEffort | undefined {
  if (thinking.type !== "enabled") return undefined;
  if (thinking.budgetTokens <= 4_096) return "low";
  if (thinking.budgetTokens < 16_384) return "medium";
  return "high";
}

export function toChatMessages(system: string, messages: ModelRequest["messages"]): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const message of messages) {
    if (message.role === "assistant") {
      const converted = assistantMessage(message);
      if (converted) out.push(converted);
    } else {
      out.push(...userMessages(message));
    }
  }
  return out;
}

function assistantMessage(message: AssistantMessage): ChatMessage | undefined {
  const text = message.content
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("");
  const toolCalls: OpenAI.Chat.ChatCompletionMessageToolCall[] = [];
  for (const block of message.content) {
    if (block.type !== "tool_use") continue;
    toolCalls.push({
      id: block.id,
      type: "function",
      function: { name: block.name, arguments: JSON.stringify(block.input) },
    });
  }
  // Thinking is not sent back: Chat Completions has no field for it, and some servers (DeepSeek)
  // reject a request that echoes reasoning content.
  if (!text && toolCalls.length === 0) return undefined;
  const converted: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: "assistant", content: text || null };
  if (toolCalls.length > 0) converted.tool_calls = toolCalls;
  return converted;
}

function userMessages(message: UserMessage): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts: UserPart[] = [];
  for (const block of message.content) {
    if (block.type === "tool_result") {
      const { text, images } = splitToolResult(block);
      out.push({ role: "tool", tool_call_id: block.tool_use_id, content: text });
      if (images.length > 0) {
        parts.push({
          type: "text",
          text: `Image${images.length > 1 ? "s" : ""} returned by tool call ${block.tool_use_id}:`,
        });
        parts.push(...images.map(imagePart));
      }
    }
  }
  for (const block of message.content) {
    if (block.type === "text" && block.text) parts.push({ type: "text", text: block.text });
    if (block.type === "image") parts.push(imagePart(block));
  }
  if (parts.length > 0) {
    const onlyText = parts.every((p) => p.type === "text");
    // Plain string content where possible: some compatible servers accept nothing else.
    const content = onlyText
      ? parts.map((p) => (p as OpenAI.Chat.ChatCompletionContentPartText).text).join("\n\n")
      : parts;
    out.push({ role: "user", content });
  }
  return out;
}

function splitToolResult(block: ToolResultBlock): { text: string; images: ImageBlock[] } {
  let text: string;
  const images: ImageBlock[] = [];
  if (typeof block.content === "string") {
    text = block.content;
  } else {
    const texts: string[] = [];
    for (const part of block.content) {
      if (part.type === "text") texts.push(part.text);
      else images.push(part);
    }
    if (images.length > 0)
      texts.push(`[${images.length} image${images.length > 1 ? "s" : ""} attached in the next user message]`);
    text = texts.join("\n");
  }
  // Chat Completions has no is_error flag; the words have to carry it.
  if (block.is_error && !/^\s*error\b/i.test(text)) text = `Error: ${text}`;
  return { text, images };
}

function imagePart(block: ImageBlock): OpenAI.Chat.ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: `data:${block.source.media_type};base64,${block.source.data}` } };
}
