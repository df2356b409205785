// Our messages are already shaped like the Messages API; this copies them field by field (so
// harness-only fields such as isMeta or invalidInput never reach the wire) and drops what the API
// would reject: empty text blocks and thinking blocks that carry no signature (written by another
// provider, they cannot be verified).
import type Anthropic from "@anthropic-ai/sdk";
import type { ImageBlock, Message, TextBlock, ToolResultContent } from "../messages/types.js";
import type { ModelRequest, ThinkingSetting } from "./types.js";

type ContentParam = Anthropic.ContentBlockParam;
type TextOrImageParam = Anthropic.TextBlockParam | Anthropic.ImageBlockParam;

// Prompt caching: one breakpoint after the system prompt (which follows the tools, so it covers
// both) and one on the newest message, so each turn reads the whole previous turn from cache.
const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: "ephemeral" };

export function toAnthropicParams(request: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  const messages = request.messages.map(toMessageParam).filter((m) => (m.content as ContentParam[]).length > 0);
  markNewestForCache(messages);
  const params: Anthropic.MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
  };
  if (request.system) params.system = [{ type: "text", text: request.system, cache_control: EPHEMERAL }];
  const tools: Anthropic.ToolUnion[] = request.tools.map((tool) => {
    const param: Anthropic.Tool = {
      name: tool.name,
      description: tool.description,
      input_schema: tool.input_schema as Anthropic.Tool.InputSchema,
    };
    if (tool.strict) param.strict = true;
    return param;
  });
  if (request.webSearch) tools.push(webSearchTool(request.webSearch));
  if (tools.length > 0) params.tools = tools;
  const thinking = request.thinking && thinkingParam(request.thinking, request.maxTokens);
  if (thinking) {
    params.thinking = thinking;
    // The API refuses a temperature other than 1 while the model thinks.
    if (thinking.type !== "disabled") return params;
  }
  // This SDK's types no longer list temperature; the API still takes it for the models that do.
  if (request.temperature !== undefined)
    return { ...params, temperature: request.temperature } as Anthropic.MessageCreateParamsStreaming;
  return params;
}

/** The smallest budget the API takes for manual thinking. */
const MIN_THINKING_BUDGET = 1024;

/**
 * The request's `thinking`: the budget must be at least 1,024 and below max_tokens, so a larger one
 * is cut to fit what the model may write; a response too short to hold the minimum gets none.
 */
function thinkingParam(setting: ThinkingSetting, maxTokens: number): Anthropic.ThinkingConfigParam | undefined {
  switch (setting.type) {
    case "disabled":
      return { type: "disabled" };
    case "adaptive":
      return setting.display ? { type: "adaptive", display: setting.display } : { type: "adaptive" };
    case "enabled": {
      if (maxTokens <= MIN_THINKING_BUDGET) return undefined;
      const budget = Math.min(Math.max(setting.budgetTokens, MIN_THINKING_BUDGET), maxTokens - 1);
      const param: Anthropic.ThinkingConfigEnabled = { type: "enabled", budget_tokens: budget };
      if (setting.display) param.display = setting.display;
      return param;
    }
  }
}

/** The server-side web search tool (the API refuses allowed and blocked domains together). */
function webSearchTool(options: NonNullable<ModelRequest["webSearch"]>): Anthropic.WebSearchTool20250305 {
  const tool: Anthropic.WebSearchTool20250305 = {
    type: "web_search_20250305",
    name: "web_search",
    max_uses: options.maxUses,
  };
  if (options.allowedDomains?.length) tool.allowed_domains = [...options.allowedDomains];
  else if (options.blockedDomains?.length) tool.blocked_domains = [...options.blockedDomains];
  return tool;
}

function toMessageParam(message: Message): Anthropic.MessageParam {
  const content: ContentParam[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        if (block.text) content.push({ type: "text", text: block.text });
        break;
      case "image":
        content.push(imageParam(block));
        break;
      case "thinking":
        if (block.signature) content.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
        break;
      case "tool_use":
        content.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
        break;
      case "tool_result": {
        const result: Anthropic.ToolResultBlockParam = {
          type: "tool_result",
          tool_use_id: block.tool_use_id,
          content: toolResultContent(block.content),
        };
        if (block.is_error) result.is_error = true;
        content.push(result);
        break;
      }
    }
  }
  return { role: message.role, content };
}

function imageParam(block: ImageBlock): Anthropic.ImageBlockParam {
  return {
    type: "image",
    source: {
      type: "base64",
      media_type: block.source.media_type as Anthropic.Base64ImageSource["media_type"],
      data: block.source.data,
    },
  };
}

function toolResultContent(content: ToolResultContent): string | TextOrImageParam[] {
  if (typeof content === "string") return content;
  const parts: TextOrImageParam[] = [];
  for (const part of content as Array<TextBlock | ImageBlock>) {
    if (part.type === "text") {
      if (part.text) parts.push({ type: "text", text: part.text });
    } else {
      parts.push(imageParam(part));
    }
  }
  return parts.length > 0 ? parts : "";
}

function markNewestForCache(messages: Anthropic.MessageParam[]): void {
  const newest = messages.at(-1);
  if (!newest || !Array.isArray(newest.content)) return;
  for (let i = newest.content.length - 1; i >= 0; i--) {
    const block = newest.content[i]!;
    // Thinking blocks cannot carry a cache breakpoint.
    if (block.type === "text" || block.type === "image" || block.type === "tool_use" || block.type === "tool_result") {
      block.cache_control = EPHEMERAL;
      return;
    }
  }
}
