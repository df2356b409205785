// The session's mailboxes: what one part of Warden leaves for another, as typed channels owned by
// the session beside its AppState (which stays state: what is, not what waits to be taken). Each
// channel names its producers and its one consumer; a front end sends through the session's
// commands (src/control/session-commands.ts), a tool through its context (`context.channels`).
// Attachment sources only read: the loop drains the channels whose items go to the model and hands
// them to the sources in AttachmentContext.arrived. A subagent's store has channels of its own.
import type { UserMessage } from "../messages/types.js";
import type { BriefMessage } from "./brief.js";
import { Channel, Flag, Slot } from "./channel.js";

export interface SessionChannels {
  /**
   * Texts for the model that arrived outside a tool result.
   * Producers: a background task's end (tasks/registry.ts pushReminder: shell commands, agents),
   * hooks' additional context (hooks/queue-reminders.ts), SessionStart hooks after a compaction
   * (loop/context-manager.ts), a front end's `remind` (control/session-commands.ts).
   * Consumer: the loop before each request (loop/reminders.ts), which hands them to the
   * `hook_context` attachment as one reminder. TaskOutput withdraws a task's notice the model has
   * just read; Sleep and the UI's wake notice only look.
   */
  reminders: Channel<string>;
  /**
   * Messages the model sent the user (SendUserMessage, tools/brief/), waiting to be shown.
   * Consumer: the loop after the turn's tool calls (loop/query.ts), as `brief` events.
   */
  brief: Channel<BriefMessage>;
  /**
   * Messages for the conversation that the user (or a schedule) sent while a prompt ran.
   * Producers: a front end's `queueMessage` (control/session-commands.ts), the session's
   * submitWhileRunning (loop/user-message-queue.ts), a scheduled prompt falling due
   * (tools/cron-shared/session-schedule.ts).
   * Consumer: the loop's next request (loop/reminders.ts, the `queued_command` attachment), or the
   * next prompt when the message interrupted the turn (loop/session.ts). Sleep only looks.
   */
  userMessages: Channel<UserMessage>;
  /**
   * Something arrived that the model should act on without waiting for the person.
   * Producers: a background task's end, a scheduled prompt, `remind`, the lead's mailbox watch.
   * Consumer: the idle wake (loop/wake.ts), which clears it when a prompt starts (its requests
   * carry what waits) and starts a turn for it in an idle interactive or stream-json session.
   */
  wake: Flag;
  /**
   * Bash calls (tool_use ids) the person sent to the background before their command started
   * (Ctrl+B while the call's checks ran).
   * Producer: the UI, through the session command `backgroundWhenStarted`.
   * Consumer: the Bash call of that id when its command starts (tools/bash/foreground-commands.ts).
   */
  backgroundWhenStarted: Channel<string>;
  /**
   * A teammate's plan waiting for the lead's answer: the request id ExitPlanMode sent.
   * Producer: ExitPlanMode in a teammate (tools/exit-plan-mode/).
   * Consumer: the delivery of the lead's answer (tools/team-shared/delivery.ts).
   */
  planApproval: Slot<string>;
  /**
   * A teammate approved the lead's shutdown request.
   * Producer: SendMessage's shutdown_response (tools/send-message/).
   * Consumer: the teammate's loop (loop/subagent/teammate.ts), which ends after the turn's calls.
   */
  shutdownApproved: Flag;
  /**
   * A tool call's hook answered `continue: false` (Claude Code's "stop after the hooks"): its
   * `stopReason`, for the person.
   * Producer: the PreToolUse, PostToolUse, PostToolUseFailure and PostToolBatch hook calls
   * (hooks/tool-hooks.ts).
   * Consumer: the loop after the response's calls (loop/query.ts), which ends the query there
   * (`hook_stopped`) instead of sending the next request. A subagent's own calls stop its own loop.
   */
  hookStop: Slot<string>;
  /**
   * Warnings hooks answered for the person (`systemMessage`), never sent to the model.
   * Producer: every hook event's run (cli/session/permissions.ts binds the runner to this channel).
   * Consumer: a prompt's run with its hooks (loop/session-hooks.ts), which shows them as `notice`
   * events before the loop's next event, and after the Stop hooks.
   */
  hookMessages: Channel<string>;
}

export function createSessionChannels(): SessionChannels {
  return {
    reminders: new Channel<string>(),
    brief: new Channel<BriefMessage>(),
    userMessages: new Channel<UserMessage>(),
    wake: new Flag(),
    backgroundWhenStarted: new Channel<string>(),
    planApproval: new Slot<string>(),
    shutdownApproved: new Flag(),
    hookStop: new Slot<string>(),
    hookMessages: new Channel<string>(),
  };
}
