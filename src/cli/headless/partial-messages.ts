// --include-partial-messages: the model's answer as it streams, as Anthropic's raw stream events
// (message_start, content_block_start / _delta / _stop, message_delta, message_stop) wrapped in
// `stream_event` lines, the shape the Agent SDK's SDKPartialAssistantMessage carries. Rebuilt from
// the loop's deltas, so every provider (OpenAI-compatible ones, the replay script) streams alike.
import type { QueryEvent } from "../../loop/events.js";
import { apiBlock } from "./api-content.js";

type BlockKind = "text" | "thinking";

export class PartialMessages {
  private open: { index: number; kind: BlockKind } | undefined;
  private nextIndex = 0;
  private started = false;
  /** The id of the message being streamed, then of the one just ended (see takeMessageId). */
  private messageId: string | undefined;

  constructor(
    private readonly write: (line: object) => void,
    private readonly sessionId: string,
    /** The model requests go to now, for a message_start that comes before the answer names its model. */
    private readonly currentModel: () => string,
  ) {}

  /**
   * The id the stream's message_start gave the answer just ended (once): its assistant line
   * carries the same id, as Claude Code's do, so a program matches the events with the message.
   */
  takeMessageId(): string | undefined {
    const id = this.messageId;
    this.messageId = undefined;
    return id;
  }

  event(event: QueryEvent): void {
    switch (event.type) {
      case "request_start":
      case "stream_reset":
        this.started = false;
        this.messageId = undefined;
        this.open = undefined;
        this.nextIndex = 0;
        return;
      case "text_delta":
        this.delta("text", { type: "text_delta", text: event.text });
        return;
      case "thinking_delta":
        this.delta("thinking", { type: "thinking_delta", thinking: event.thinking });
        return;
      case "assistant":
        this.startMessage(event.message.model);
        this.closeBlock();
        // Tool calls arrive whole: each as a block with its input as one delta.
        for (const block of event.message.content) {
          if (block.type !== "tool_use") continue;
          const index = this.nextIndex++;
          this.emit({ type: "content_block_start", index, content_block: { ...apiBlock(block), input: {} } });
          this.emit({
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
          });
          this.emit({ type: "content_block_stop", index });
        }
        this.emit({
          type: "message_delta",
          delta: { stop_reason: event.message.stopReason ?? null, stop_sequence: null },
          usage: { output_tokens: event.message.usage?.output_tokens ?? 0 },
        });
        this.emit({ type: "message_stop" });
        this.started = false;
        this.nextIndex = 0;
        return;
      default:
        return;
    }
  }

  private delta(kind: BlockKind, delta: object): void {
    this.startMessage(undefined);
    if (this.open?.kind !== kind) {
      this.closeBlock();
      this.open = { index: this.nextIndex++, kind };
      this.emit({
        type: "content_block_start",
        index: this.open.index,
        content_block: kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "", signature: "" },
      });
    }
    this.emit({ type: "content_block_delta", index: this.open.index, delta });
  }

  private startMessage(model: string | undefined): void {
    if (this.started) return;
    this.started = true;
    this.messageId = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
    this.emit({
      type: "message_start",
      message: {
        id: this.messageId,
        type: "message",
        role: "assistant",
        model: model ?? this.currentModel(),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  }

  private closeBlock(): void {
    if (!this.open) return;
    this.emit({ type: "content_block_stop", index: this.open.index });
    this.open = undefined;
  }

  private emit(event: object): void {
    this.write({
      type: "stream_event",
      event,
      parent_tool_use_id: null,
      session_id: this.sessionId,
      uuid: crypto.randomUUID(),
    });
  }
}
