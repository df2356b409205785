// The provider a session talks to, as one object whose target can change while the session runs:
// the Agent SDK's set_model swaps it between turns, and --fallback-model answers a request the
// main model failed before sending anything back (its usage then counted under the fallback).
import type { ModelRequest, Provider, ProviderEvent } from "../../providers/types.js";
import type { ResolvedModel } from "./model-choice.js";

export interface SwitchableProvider extends Provider {
  /** Requests from now on go to this model. */
  switchTo(model: ResolvedModel): void;
  /** The model requests go to now (`provider:model`). */
  readonly current: ResolvedModel;
}

export function switchableProvider(initial: ResolvedModel, fallback?: ResolvedModel): SwitchableProvider {
  let current = initial;
  const answeredBy = fallback && { provider: fallback.provider.name, model: fallback.model };
  return {
    name: initial.provider.name,
    get current() {
      return current;
    },
    switchTo(model) {
      current = model;
    },
    stream(request: ModelRequest): AsyncIterable<ProviderEvent> {
      // Only the main loop's requests follow a switch: they name the model the session started on.
      // A request for another model of this provider (a side query's small model, a subagent's
      // alias) goes where it asks, as the provider itself would send it.
      if (request.model !== initial.model) return initial.provider.stream(request);
      const target = current;
      // A model switched to answers under its own name (the assistant message, the transcript that
      // ccusage prices), not under the name the session started with and still asks for.
      const switched =
        target.label === initial.label ? undefined : { provider: target.provider.name, model: target.model };
      // With no fallback to turn to and no switch, the target's stream is the answer as it is: a
      // generator here would only add its cost to each of the answer's events (the common case).
      if ((!fallback || fallback.label === target.label) && !switched)
        return target.provider.stream({ ...request, model: target.model });
      return (async function* () {
        let sentSomething = false;
        try {
          for await (const event of target.provider.stream({ ...request, model: target.model })) {
            sentSomething = true;
            yield event.type === "usage" && switched ? { ...event, answeredBy: switched } : event;
          }
        } catch (error) {
          // Only a request that failed whole goes to the fallback: half an answer cannot be merged.
          if (!fallback || sentSomething || request.signal.aborted || fallback.label === target.label) throw error;
          for await (const event of fallback.provider.stream({ ...request, model: fallback.model })) {
            yield event.type === "usage" ? { ...event, answeredBy } : event;
          }
        }
      })();
    },
  };
}
