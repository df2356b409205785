import { onNextRequestWritten } from "../providers/http-fetch.js";
import type { Provider } from "../providers/types.js";
import type { AnyTool } from "../tool/types.js";

/**
 * How long a request must have been out with nothing of its answer back before the session counts
 * as waiting on the model. A real model takes far longer to start answering; a local server that
 * answers at once does not leave the agent idle, and work started then would delay the agent.
 */
const WAITING_GRACE_MS = 10;

export interface RequestWatch {
  provider: Provider;
  /**
   * Resolves once the first request is on its way: written whole to the socket for the providers
   * over HTTP, or, for one without a wire (replay), at its first event or its end.
   */
  sent: Promise<void>;
  /**
   * Runs `task` once, the first time the session waits on the model (a request has been out for
   * WAITING_GRACE_MS with no answer yet): work that is only worth doing while nothing else runs.
   */
  whenWaitingOnModel(task: () => void): void;
}

/** Wraps a provider to see when its requests leave and when their answers begin. */
export function watchRequests(provider: Provider): RequestWatch {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => {
    markSent = resolve;
  });
  const idleTasks: Array<() => void> = [];
  const runIdleTasks = () => {
    for (const task of idleTasks.splice(0)) {
      try {
        task();
      } catch {
        // An idle task is an optimisation: its failure shows up, if at all, where its result is used.
      }
    }
  };
  return {
    sent,
    whenWaitingOnModel: (task) => void idleTasks.push(task),
    provider: {
      name: provider.name,
      stream(request) {
        let answered = false;
        onNextRequestWritten(() => {
          markSent();
          if (idleTasks.length > 0)
            setTimeout(() => {
              if (!answered) runIdleTasks();
            }, WAITING_GRACE_MS).unref();
        });
        const inner = provider.stream(request);
        return (async function* () {
          try {
            for await (const event of inner) {
              answered = true;
              markSent();
              yield event;
            }
          } finally {
            answered = true;
            markSent();
          }
        })();
      },
    },
  };
}

/**
 * Loads what tool calls will need (Tool.whenReady: for Bash the grammar and analysis, ~80 ms) while
 * the session waits on the model, instead of before the first request (start-up time) or while the
 * agent is busy with an answer. A call that needs it sooner loads it itself: the executor waits for
 * whenReady before scheduling the call.
 */
export function warmUpWhileWaiting(watch: RequestWatch, tools: readonly AnyTool[]): void {
  const loaders = tools.filter((tool) => tool.whenReady !== undefined);
  if (loaders.length === 0) return;
  watch.whenWaitingOnModel(() => {
    for (const tool of loaders) {
      try {
        tool.whenReady?.()?.catch(() => undefined);
      } catch {
        // A tool that cannot prepare is waited for (and fails closed) when it is called.
      }
    }
  });
}
