// What each adapter puts on the wire for a conversation, checked in the request bodies the
// scripted server received: a round trip of a streamed turn with tool calls, fed back with results.
import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message, UserMessage } from "../../src/messages/types.js";
import { createAnthropicProvider } from "../../src/providers/anthropic.js";
import { createOpenAIProvider } from "../../src/providers/openai.js";
import type { Provider } from "../../src/providers/types.js";
import { reply, type ScriptedModelServer } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { drain, requestOf } from "./support.js";

const PNG = { type: "base64" as const, media_type: "image/png", data: "iVBORw0KGgo=" };

/** Runs one turn, then sends the assistant message back with tool results; returns the 2nd request body. */
async function roundTrip(
  server: ScriptedModelServer,
  provider: Provider,
  results: UserMessage,
): Promise<Record<string, unknown>> {
  server.enqueue(
    reply()
      .thinking("plan")
      .text("Reading two files.")
      .tool("Read", { file_path: "/a.png" }, { id: "call_1" })
      .tool("Read", { file_path: "/missing" }, { id: "call_2" }),
    reply().text("Both handled."),
  );
  const first: Message[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "look at these" },
        { type: "image", source: PNG },
      ],
    },
  ];
  const turn = await drain(provider.stream(requestOf({ messages: first })));
  const assistant: AssistantMessage = {
    role: "assistant",
    content: turn.events.flatMap((e) => (e.type === "block" ? [e.block] : [])),
    stopReason: "tool_use",
  };
  const second = await drain(provider.stream(requestOf({ messages: [...first, assistant, results] })));
  expect(second.error).toBeUndefined();
  return server.requests[1]!.body as Record<string, unknown>;
}

const TOOL_RESULTS: UserMessage = {
  role: "user",
  content: [
    {
      type: "tool_result",
      tool_use_id: "call_1",
      content: [
        { type: "text", text: "Image read: 1x1" },
        { type: "image", source: PNG },
      ],
    },
    { type: "tool_result", tool_use_id: "call_2", content: "File does not exist.", is_error: true },
    { type: "text", text: "<system-reminder>keep going</system-reminder>" },
  ],
  isMeta: true,
};

describe("message conversion", () => {
  const server = scriptedModelServerFixture();

  it("OpenAI: tool calls on the assistant, tool messages next, the tool's image in a user message after them", async () => {
    const provider = createOpenAIProvider({ apiKey: "k", baseURL: server.openaiBaseURL });
    const body = await roundTrip(server, provider, TOOL_RESULTS);
    const dataUrl = `data:image/png;base64,${PNG.data}`;
    expect(body.messages).toEqual([
      { role: "system", content: "You are a test." },
      {
        role: "user",
        content: [
          { type: "text", text: "look at these" },
          { type: "image_url", image_url: { url: dataUrl } },
        ],
      },
      {
        role: "assistant",
        content: "Reading two files.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "Read", arguments: '{"file_path":"/a.png"}' } },
          { id: "call_2", type: "function", function: { name: "Read", arguments: '{"file_path":"/missing"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "Image read: 1x1\n[1 image attached in the next user message]" },
      { role: "tool", tool_call_id: "call_2", content: "Error: File does not exist." },
      {
        role: "user",
        content: [
          { type: "text", text: "Image returned by tool call call_1:" },
          { type: "image_url", image_url: { url: dataUrl } },
          { type: "text", text: "<system-reminder>keep going</system-reminder>" },
        ],
      },
    ]);
  });

  it("OpenAI: an assistant turn with only tool calls has null content; text-only user content is a string", async () => {
    const provider = createOpenAIProvider({ apiKey: "k", baseURL: server.openaiBaseURL });
    server.enqueue(reply().text("ok"));
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "Read", input: { file_path: "/x" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "x contents" }] },
    ];
    await drain(provider.stream(requestOf({ messages, system: "" })));
    expect((server.requests[0]!.body as { messages: unknown }).messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "Read", arguments: '{"file_path":"/x"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "x contents" },
    ]);
  });

  it("Anthropic: blocks pass through as the API's own, with harness-only fields left out and a cache breakpoint on the newest block", async () => {
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.anthropicBaseURL });
    const body = await roundTrip(server, provider, TOOL_RESULTS);
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "look at these" },
          { type: "image", source: PNG },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig-scripted" },
          { type: "text", text: "Reading two files." },
          { type: "tool_use", id: "call_1", name: "Read", input: { file_path: "/a.png" } },
          { type: "tool_use", id: "call_2", name: "Read", input: { file_path: "/missing" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_1",
            content: [
              { type: "text", text: "Image read: 1x1" },
              { type: "image", source: PNG },
            ],
          },
          { type: "tool_result", tool_use_id: "call_2", content: "File does not exist.", is_error: true },
          { type: "text", text: "<system-reminder>keep going</system-reminder>", cache_control: { type: "ephemeral" } },
        ],
      },
    ]);
  });

  it("Anthropic: drops empty text and unsigned thinking, and never sends invalidInput", async () => {
    const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.anthropicBaseURL });
    server.enqueue(reply().text("ok"));
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "from another provider" },
          { type: "text", text: "" },
          { type: "tool_use", id: "t1", name: "Read", input: {}, invalidInput: { raw: "{oops", error: "bad JSON" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "Error: bad JSON", is_error: true }],
      },
    ];
    await drain(provider.stream(requestOf({ messages })));
    const sent = (server.requests[0]!.body as { messages: Array<{ content: unknown }> }).messages;
    expect(sent[1]!.content).toEqual([{ type: "tool_use", id: "t1", name: "Read", input: {} }]);
  });
});
