// One streamed model response, turned into loop events while it arrives: deltas are passed through
// for display, complete blocks are collected (and a complete tool_use is handed to the tool turn at
// once, so it starts while the model still writes), and the outcome says how the stream ended.
import type { AssistantContentBlock, AssistantMessage, StopReason, Usage } from "../messages/types.js";
import type { AnsweringModel, Provider, ProviderEvent } from "../providers/types.js";
import type { QueryEvent } from "./events.js";
import type { StreamingToolTurn } from "./execute-tools.js";

export interface StreamedTurn {
  blocks: AssistantContentBlock[];
  stopReason?: StopReason;
  usage?: Usage;
  /** The model that answered, when not the one asked (a fallback): its usage is counted under it. */
  answeredBy?: AnsweringModel;
}

export type StreamOutcome =
  | { kind: "done"; turn: StreamedTurn }
  | { kind: "aborted"; turn: StreamedTurn }
  | { kind: "error"; turn: StreamedTurn; error: unknown };

/** Events of one streamed model response, passed through as loop events while the turn is built. */
export async function* streamTurn(
  provider: Provider,
  request: Parameters<Provider["stream"]>[0],
  signal: AbortSignal,
  toolTurn?: StreamingToolTurn,
): AsyncGenerator<QueryEvent, StreamOutcome> {
  const turn: StreamedTurn = { blocks: [] };
  let iterator: AsyncIterator<ProviderEvent> | undefined;
  let streamEnded = false;
  // One listener per request: racing every next() against it makes abort take effect at once even
  // when a provider does not watch its signal.
  let onAbort: () => void = () => {};
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    iterator = provider.stream(request)[Symbol.asyncIterator]();
    while (true) {
      if (signal.aborted) return { kind: "aborted", turn };
      const pending = iterator.next();
      // If abort wins the race, this promise may still reject later; it must not go unhandled.
      pending.catch(() => {});
      const next = await Promise.race([pending, aborted]);
      if (next === "aborted") return { kind: "aborted", turn };
      if (next.done) {
        streamEnded = true;
        return { kind: "done", turn };
      }
      const event = next.value;
      switch (event.type) {
        case "text_delta":
          yield { type: "text_delta", text: event.text };
          break;
        case "thinking_delta":
          yield { type: "thinking_delta", thinking: event.thinking };
          break;
        case "block":
          turn.blocks.push(event.block);
          // A complete tool_use starts now, while the model is still writing the rest.
          toolTurn?.onBlock(event.block, turn.blocks, request.model);
          break;
        case "usage":
          turn.usage = event.usage;
          turn.answeredBy = event.answeredBy;
          break;
        case "stop":
          turn.stopReason = event.stopReason;
          break;
        case "reset":
          // The provider restarted the stream after a cut; what came before is void.
          turn.blocks = [];
          turn.usage = undefined;
          turn.answeredBy = undefined;
          turn.stopReason = undefined;
          toolTurn?.onReset();
          yield { type: "stream_reset" };
          break;
      }
      // Progress and results of calls started mid-stream are shown now, not when the response ends.
      // (An indexed loop over an array, not yield* or for...of: delegating to a generator from an
      // async one costs microtask turns, and both allocate, on every stream event even when
      // nothing is ready.)
      if (toolTurn) {
        const ready = toolTurn.readyEvents();
        for (let i = 0; i < ready.length; i++) yield ready[i] as QueryEvent;
      }
    }
  } catch (error) {
    streamEnded = true;
    if (signal.aborted) return { kind: "aborted", turn };
    return { kind: "error", turn, error };
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Aborted, or our consumer stopped early: close the provider's stream so its connection is
    // released. Not awaited: a provider stuck in a network read must not hold the loop.
    if (!streamEnded && iterator?.return) iterator.return(undefined).catch(() => {});
  }
}

export function assistantOf(turn: StreamedTurn, model: string): AssistantMessage {
  const message: AssistantMessage = { role: "assistant", content: turn.blocks, model };
  if (turn.stopReason) message.stopReason = turn.stopReason;
  if (turn.usage) message.usage = turn.usage;
  return message;
}
