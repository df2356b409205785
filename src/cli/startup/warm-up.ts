import { onNextRequestWritten } from "../../providers/http-fetch.js";
import type { Provider } from "../../providers/types.js";
import type { AnyTool } from "../../tool/types.js";
import { firstToolTurnFollowedUp } from "./code-cache-marks.js";
import { tracePhase } from "./phase-trace.js";

/**
 * How long a request must have been out with nothing of its answer back before the session counts
 * as waiting on the model. A real model takes far longer to start answering; a local server that
 * answers at once does not leave the agent idle, and work started then would delay the agent.
 */
export const WAITING_GRACE_MS = 10;

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
  /**
   * For a warm-up's steps (Tool.whenReady's `pace`): resolves at once while the session waits on
   * the model, else the next time it does. From a response's first tool call (or its end) until
   * the next request has been out for the grace, the session is at work and a step waits.
   */
  pace(): Promise<void>;
}

/** Wraps a provider to see when its requests leave and when their answers begin and end. */
export function watchRequests(provider: Provider): RequestWatch {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => {
    markSent = resolve;
  });
  const idleTasks: Array<() => void> = [];
  const runIdleTasks = () => {
    if (idleTasks.length > 0) tracePhase("warm_up_start");
    for (const task of idleTasks.splice(0)) {
      try {
        task();
      } catch {
        // An idle task is an optimisation: its failure shows up, if at all, where its result is used.
      }
    }
  };
  // True while a request has been out for the grace with neither a tool call nor the response's
  // end back: the session is waiting on the model, and a warm-up's steps may run.
  let waiting = false;
  const paceWaiters: Array<() => void> = [];
  const stopWaiting = () => {
    waiting = false;
  };
  // The calls of the first response that had any, until its follow-up request is out; then done.
  let firstToolTurn: string[] | "followed up" | undefined;
  const pace = (): Promise<void> =>
    waiting
      ? Promise.resolve().then(() => tracePhase("warm_up_step"))
      : new Promise<void>((resolve) => paceWaiters.push(resolve)).then(() => tracePhase("warm_up_step"));
  return {
    sent,
    pace,
    whenWaitingOnModel: (task) => void idleTasks.push(task),
    provider: {
      name: provider.name,
      stream(request) {
        let answered = false;
        let done = false;
        const followsToolTurn = Array.isArray(firstToolTurn) ? firstToolTurn : undefined;
        onNextRequestWritten(() => {
          tracePhase("request_written");
          markSent();
          if (followsToolTurn) {
            firstToolTurn = "followed up";
            firstToolTurnFollowedUp(followsToolTurn);
          }
          const startWaiting = () => {
            // Neither a tool call nor the end yet: whatever arrived is the model still writing.
            if (done) return;
            waiting = true;
            for (const resume of paceWaiters.splice(0)) resume();
            if (!answered) runIdleTasks();
          };
          // The grace timer runs before the event loop reads its sockets: when the process was busy
          // past the grace (a loaded machine), the answer may already be waiting unread. setImmediate
          // comes after that read (and everything the read sets off), so an answer that is there
          // counts, and the warm-up does not start on the way to the tool calls.
          // (A ref'd immediate: an unref'd one lets the loop block in its next poll until other I/O.)
          setTimeout(() => setImmediate(startWaiting), WAITING_GRACE_MS).unref();
        });
        const inner = provider.stream(request);
        return (async function* () {
          try {
            for await (const event of inner) {
              if (!answered) tracePhase("response_first_event");
              answered = true;
              if (event.type === "block" && event.block.type === "tool_use" && firstToolTurn !== "followed up") {
                firstToolTurn = [...(firstToolTurn ?? []), event.block.name];
              }
              if (!done && event.type === "block" && event.block.type === "tool_use") {
                // The calls start now: from here until the next request the session is at work.
                tracePhase("response_tool_use");
                done = true;
                stopWaiting();
              }
              markSent();
              yield event;
            }
          } finally {
            tracePhase("response_end");
            answered = true;
            done = true;
            stopWaiting();
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
        tool.whenReady?.({ pace: watch.pace })?.catch(() => undefined);
      } catch {
        // A tool that cannot prepare is waited for (and fails closed) when it is called.
      }
    }
  });
}
