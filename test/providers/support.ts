// Shared by the provider tests: both adapters built against one scripted server, and a way to
// drain a provider stream into its events (or the error that ended it).
import type { AssistantContentBlock, Message } from "../../src/messages/types.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { createOpenAIProvider } from "../../src/providers/openai.js";
import type { ModelRequest, Provider, ProviderEvent, ToolSchema } from "../../src/providers/types.js";
import type { ScriptedModelServer } from "../helpers/scripted-model-server.js";

export interface AdapterUnderTest {
  protocol: "anthropic" | "openai";
  make(server: ScriptedModelServer): Provider;
}

export const ADAPTERS: AdapterUnderTest[] = [
  {
    protocol: "anthropic",
    make: (server) => createAnthropicProvider({ apiKey: "test-key", baseURL: server.anthropicBaseURL }),
  },
  { protocol: "openai", make: (server) => createOpenAIProvider({ apiKey: "test-key", baseURL: server.openaiBaseURL }) },
];

export const READ_TOOL: ToolSchema = {
  name: "Read",
  description: "Reads a file",
  input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
};

export function requestOf(overrides: Partial<ModelRequest> = {}): ModelRequest {
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "hello" }] }];
  return {
    model: "test-model",
    system: "You are a test.",
    messages,
    tools: [READ_TOOL],
    maxTokens: 1024,
    signal: new AbortController().signal,
    ...overrides,
  };
}

export interface Drained {
  events: ProviderEvent[];
  error?: unknown;
}

export async function drain(stream: AsyncIterable<ProviderEvent>): Promise<Drained> {
  const events: ProviderEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

/** The blocks a consumer keeps: those after the last reset. */
export function finalBlocks(events: ProviderEvent[]): AssistantContentBlock[] {
  const lastReset = events.map((e) => e.type).lastIndexOf("reset");
  return events
    .slice(lastReset + 1)
    .filter((e): e is Extract<ProviderEvent, { type: "block" }> => e.type === "block")
    .map((e) => e.block);
}

export function textDeltas(events: ProviderEvent[]): string {
  return events
    .filter((e): e is Extract<ProviderEvent, { type: "text_delta" }> => e.type === "text_delta")
    .map((e) => e.text)
    .join("");
}
