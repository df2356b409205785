// The session's side queries (the contract is src/tool/side-query.ts): one request to the session's
// provider, outside the conversation, its whole answer gathered and its usage added to the
// session's ledger. "small" asks the provider's small fast model (Claude Haiku, GPT-4.1 mini);
// providers without one known here (local servers, the replay provider) use the session's model.
import type { Usage } from "../messages/types.js";
import type { UsageLedger } from "../models/cost.js";
import { type ModelInfo, modelInfoFor } from "../models/resolve.js";
import { type ModelRequest, type Provider, ProviderError } from "../providers/types.js";
import type { SideQuery, SideQueryRequest, SideQueryResult } from "../tool/side-query.js";

/** The small fast model of each provider that has one Warden knows (settings `smallFastModel` overrides). */
export const SMALL_FAST_MODELS: Readonly<Record<string, string>> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-4.1-mini",
};

const DEFAULT_MAX_TOKENS = 4096;

export interface SideQueryOptions {
  provider: Provider;
  /** The session's model (no provider prefix) and what is known of it. */
  model: string;
  modelInfo: ModelInfo;
  ledger: UsageLedger;
  /**
   * The model "small" requests go to: a model id, or undefined for the provider's default
   * (SMALL_FAST_MODELS, else the session's model).
   */
  smallFastModel?: string;
}

export function createSideQuery(options: SideQueryOptions): SideQuery {
  const { provider } = options;
  const configuredSmall = options.smallFastModel?.trim() || SMALL_FAST_MODELS[provider.name];
  // Set once the small model was refused as unknown (a proxy or compatible server without it):
  // the session's own model answers from then on, instead of failing every call.
  let smallUnavailable = false;

  const infoOf = (model: string): ModelInfo =>
    model === options.model ? options.modelInfo : modelInfoFor(provider.name, model);

  const send = async (request: SideQueryRequest, model: string): Promise<SideQueryResult> => {
    const info = infoOf(model);
    const modelRequest: ModelRequest = {
      model,
      system: request.system,
      messages: [{ role: "user", content: [{ type: "text", text: request.prompt }] }],
      tools: [],
      maxTokens: Math.min(request.maxTokens ?? DEFAULT_MAX_TOKENS, info.maxOutputTokens),
      signal: request.signal,
      sideQuery: request.purpose,
    };
    if (request.webSearch) modelRequest.webSearch = request.webSearch;
    const answer = await collect(provider, modelRequest);
    options.ledger.add(info, answer.usage);
    return { ...answer, model };
  };

  return {
    serverWebSearch: provider.name === "anthropic",
    async run(request) {
      if (request.modelId) return send(request, request.modelId);
      const wantsSmall = (request.model ?? "small") === "small";
      const small = wantsSmall && !smallUnavailable && configuredSmall ? configuredSmall : undefined;
      if (!small || small === options.model) return send(request, options.model);
      try {
        return await send(request, small);
      } catch (error) {
        if (!isUnknownModel(error) || request.signal.aborted) throw error;
        smallUnavailable = true;
        return send(request, options.model);
      }
    },
  };
}

/** A 404, or a 400 that names the model: the server does not serve that model. */
function isUnknownModel(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  return error.status === 404 || (error.status === 400 && /model/i.test(error.message));
}

/** Streams one request to its end and gathers what the side query hands back. */
async function collect(provider: Provider, request: ModelRequest): Promise<Omit<SideQueryResult, "model">> {
  const texts: string[] = [];
  const result: Omit<SideQueryResult, "model"> = { text: "", usage: emptySideUsage(), searches: [], citations: [] };
  const queries = new Map<string, string>();
  for await (const event of provider.stream(request)) {
    switch (event.type) {
      case "block":
        if (event.block.type === "text") texts.push(event.block.text);
        break;
      case "usage":
        result.usage = event.usage;
        break;
      case "reset":
        // A retried stream starts over: what came before is void.
        texts.length = 0;
        result.searches = [];
        result.citations = [];
        queries.clear();
        break;
      case "server_tool_use":
        if (typeof event.input.query === "string") queries.set(event.id, event.input.query);
        break;
      case "web_search_result":
        result.searches.push({
          query: queries.get(event.toolUseId) ?? "",
          hits: event.hits,
          ...(event.errorCode ? { errorCode: event.errorCode } : {}),
        });
        break;
      case "citation":
        result.citations.push({
          url: event.url,
          citedText: event.citedText,
          ...(event.title ? { title: event.title } : {}),
        });
        break;
      default:
        break;
    }
  }
  result.text = texts.join("\n\n");
  return result;
}

function emptySideUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}
