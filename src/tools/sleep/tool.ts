// Sleep: a bounded wait that ends early when the session has news for the model: a user message
// queued (by the user, or a scheduled task come due), or a notice waiting for it (a background command finished, a scheduled
// prompt came due). It is 'cancel' on interrupt, so a new user message may also end it at once,
// and the call's abort signal (Ctrl+C, ESC) ends it. It watches AppState, the one place those
// arrive, at a short interval: the store has no change events, and a wait needs no precision finer
// than that.
import * as z from "zod";
import { buildTool } from "../../tool/build-tool.js";
import type { SessionChannels } from "../../tool/session-channels.js";
import { SLEEP_PROMPT, SLEEP_TOOL_NAME } from "./prompt.js";

export const MAX_SLEEP_SECONDS = 3600;
/** How often the wait looks for news. */
export const SLEEP_POLL_MS = 100;

const inputSchema = z.lazy(() =>
  z.strictObject({
    seconds: z
      .number()
      .positive()
      .max(MAX_SLEEP_SECONDS)
      .describe(`How long to wait at most (up to ${MAX_SLEEP_SECONDS})`),
  }),
);

export type SleepInput = z.infer<typeof inputSchema>;

export type SleepWake = "time_up" | "user_message" | "notification" | "cancelled";

export interface SleepOutput {
  sleptMs: number;
  woke: SleepWake;
}

/**
 * What counts as news: a queued user message or a pending notice. The loop takes both into the
 * request before each model call, so whatever is there now arrived during this turn: a Sleep
 * called after it does not wait.
 */
function news(channels: SessionChannels): SleepWake | undefined {
  if (channels.userMessages.size > 0) return "user_message";
  if (channels.reminders.size > 0) return "notification";
  return undefined;
}

export const SleepTool = buildTool<SleepInput, SleepOutput>({
  name: SLEEP_TOOL_NAME,
  searchHint: "wait pause until something happens",
  shouldDefer: true,
  maxResultSizeChars: 1_000,
  inputSchema,
  prompt: async () => SLEEP_PROMPT,
  description: async (input) => `Sleep up to ${input?.seconds ?? "?"} s`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  autoModeSafe: true,
  interruptBehavior: () => "cancel",
  checkPermissions: async () => ({
    behavior: "allow",
    decisionReason: { type: "tool", reason: "waiting changes nothing" },
  }),

  async call(input, context) {
    const started = Date.now();
    const signal = context.abortController.signal;
    const woke = await new Promise<SleepWake>((resolve) => {
      const finish = (why: SleepWake) => {
        clearTimeout(timer);
        clearInterval(poll);
        signal.removeEventListener("abort", onAbort);
        resolve(why);
      };
      const onAbort = () => finish("cancelled");
      const timer = setTimeout(() => finish("time_up"), input.seconds * 1000);
      const poll = setInterval(() => {
        const arrived = news(context.channels);
        if (arrived) finish(arrived);
      }, SLEEP_POLL_MS);
      const waiting = news(context.channels);
      if (signal.aborted) onAbort();
      else if (waiting) finish(waiting);
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    return { data: { sleptMs: Date.now() - started, woke } };
  },

  mapToolResult(output, toolUseId) {
    const seconds = (output.sleptMs / 1000).toFixed(1);
    const why: Record<SleepWake, string> = {
      time_up: "the time was up",
      user_message: "the user sent a message",
      notification: "a notification arrived (see the reminder that follows)",
      cancelled: "the wait was cancelled",
    };
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: `Slept ${seconds} s; woke because ${why[output.woke]}.`,
    };
  },
});
