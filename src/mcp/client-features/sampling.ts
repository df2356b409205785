// A server's request for a completion from the session's model (sampling). It runs only when the
// user approves it (the session's callback), or when settings name the server; otherwise the
// server gets an error saying so. The completion goes through the session's provider, and its
// tokens are counted in the session's cost.
import type { AssistantContentBlock, Message, Usage, UserContentBlock } from "../../messages/types.js";
import type { Provider } from "../../providers/types.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  McpClientFeatures,
  Sampler,
  SamplingRequest,
} from "./types.js";

/** The most a server may ask for in one completion, whatever its maxTokens says. */
export const MAX_SAMPLING_TOKENS = 8_192;

export class SamplingRefused extends Error {}

export async function answerSampling(
  request: SamplingRequest,
  features: McpClientFeatures,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  if (!features.sampler) throw new SamplingRefused("sampling is not available in this session");
  const named = features.samplingAllowedServers?.includes(request.server) === true;
  const approved = named || ((await features.approveSampling?.(request, signal)) ?? false);
  if (!approved) {
    const how = features.approveSampling
      ? "the user declined it"
      : `no one can approve it here (settings "mcpSamplingServers" may name the server)`;
    features.warn?.(`MCP server "${request.server}" asked for a completion from the model; refused: ${how}`);
    throw new SamplingRefused(`sampling request refused: ${how}`);
  }
  return features.sampler(request.params, signal);
}

function userContent(content: CreateMessageRequestParams["messages"][number]["content"]): UserContentBlock[] {
  const parts = Array.isArray(content) ? content : [content];
  return parts.flatMap((part): UserContentBlock[] => {
    if (part.type === "text") return [{ type: "text", text: part.text }];
    if (part.type === "image")
      return [{ type: "image", source: { type: "base64", media_type: part.mimeType, data: part.data } }];
    throw new SamplingRefused(`sampling content of type "${part.type}" is not supported`);
  });
}

function textOf(blocks: readonly AssistantContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
}

/**
 * A sampler on a provider and model. The server's messages become the conversation, its system
 * prompt the system prompt; no tools are offered (Warden does not declare tool use in sampling).
 */
export function createProviderSampler(options: {
  provider: Provider;
  model: string;
  /** Tokens of each completion, for the session's cost. */
  recordUsage?: (usage: Usage) => void;
}): Sampler {
  return async (params, signal) => {
    const messages: Message[] = params.messages.map((m) =>
      m.role === "user"
        ? { role: "user", content: userContent(m.content) }
        : {
            role: "assistant",
            content: [
              {
                type: "text",
                text: userContent(m.content)
                  .map((b) => (b.type === "text" ? b.text : ""))
                  .join(""),
              },
            ],
          },
    );
    const blocks: AssistantContentBlock[] = [];
    let stopReason: string | undefined;
    for await (const event of options.provider.stream({
      model: options.model,
      system: params.systemPrompt ?? "",
      messages,
      tools: [],
      maxTokens: Math.min(params.maxTokens, MAX_SAMPLING_TOKENS),
      signal,
      ...(params.temperature !== undefined && { temperature: params.temperature }),
    })) {
      if (event.type === "block") blocks.push(event.block);
      else if (event.type === "reset") blocks.length = 0;
      else if (event.type === "usage") options.recordUsage?.(event.usage);
      else if (event.type === "stop") stopReason = event.stopReason;
    }
    const mapped = stopReason === "end_turn" ? "endTurn" : stopReason === "max_tokens" ? "maxTokens" : stopReason;
    return {
      role: "assistant",
      content: { type: "text", text: textOf(blocks) },
      model: options.model,
      ...(mapped !== undefined && { stopReason: mapped }),
    };
  };
}
