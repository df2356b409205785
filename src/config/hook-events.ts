// Every hook event Warden fires, once: its name, what a /hooks listing says of it, and what its
// matcher is tested against. The settings schema, the hook runner and the Agent SDK's hooks
// listing all read this table, so an event added here is known everywhere and none can drift.

/** What an event's `matcher` is tested against; absent: the event has no matcher (every hook runs). */
export type HookMatcherSubject =
  | "tool name"
  | "source"
  | "reason"
  | "trigger"
  | "agent type"
  | "notification type"
  | "error kind"
  | "load reason"
  | "settings source"
  | "file name"
  | "server name";

export interface HookEventInfo {
  /** One line for a listing of events (the SDK's get_hooks_listing, a /hooks menu). */
  summary: string;
  matcher?: HookMatcherSubject;
}

export const HOOK_EVENT_CATALOG = {
  PreToolUse: { summary: "Before a tool runs", matcher: "tool name" },
  PostToolUse: { summary: "After a tool has run", matcher: "tool name" },
  PostToolUseFailure: { summary: "After a tool call failed", matcher: "tool name" },
  PostToolBatch: { summary: "After every call of one model response has its result" },
  PermissionRequest: { summary: "When a permission question is about to be asked", matcher: "tool name" },
  PermissionDenied: { summary: "When auto mode's classifier refused a tool call", matcher: "tool name" },
  UserPromptSubmit: { summary: "When a prompt is sent, before the model sees it" },
  UserPromptExpansion: { summary: "When a typed /command is about to become its text" },
  Stop: { summary: "When the model ends its answer" },
  StopFailure: { summary: "When a turn ends on a model error", matcher: "error kind" },
  SubagentStart: { summary: "When a subagent starts", matcher: "agent type" },
  SubagentStop: { summary: "When a subagent ends its answer", matcher: "agent type" },
  Setup: { summary: "With --init, --init-only or --maintenance, before the session", matcher: "trigger" },
  SessionStart: { summary: "When a session starts or is resumed", matcher: "source" },
  SessionEnd: { summary: "When a session ends", matcher: "reason" },
  Notification: { summary: "When Warden needs the user", matcher: "notification type" },
  PreCompact: { summary: "Before the conversation is summarised", matcher: "trigger" },
  PostCompact: { summary: "After the conversation was summarised", matcher: "trigger" },
  PreModelSwitch: { summary: "Before the session's model is switched (may refuse the switch)" },
  PostModelSwitch: { summary: "After the session's model was switched" },
  PreSkillShellCommand: {
    summary: "Before a !`command` line of a command or skill runs (may refuse it)",
    matcher: "tool name",
  },
  MessageDisplay: { summary: "As the model's text is shown (may change or hide what is shown)" },
  TaskCreated: { summary: "When a task is created" },
  TaskCompleted: { summary: "When a task is marked completed" },
  TeammateIdle: { summary: "When a teammate is about to go idle" },
  CwdChanged: { summary: "When the shell's directory changes" },
  DirectoryAdded: { summary: "When a working folder is added" },
  FileChanged: { summary: "When a watched file changes on disk", matcher: "file name" },
  WorktreeCreate: { summary: "When a worktree is needed" },
  WorktreeRemove: { summary: "When a worktree is given up" },
  InstructionsLoaded: { summary: "When a memory or rule file reaches the context", matcher: "load reason" },
  ConfigChange: { summary: "When a settings file changes on disk", matcher: "settings source" },
  Elicitation: { summary: "When an MCP server asks the user", matcher: "server name" },
  ElicitationResult: { summary: "When the answer to an MCP server is about to go back", matcher: "server name" },
} as const satisfies Record<string, HookEventInfo>;

export type HookEventName = keyof typeof HOOK_EVENT_CATALOG;

export const HOOK_EVENTS = Object.keys(HOOK_EVENT_CATALOG) as readonly HookEventName[];

/** The event's entry, typed as the general shape (its matcher may be absent). */
export function hookEventInfo(event: HookEventName): HookEventInfo {
  return HOOK_EVENT_CATALOG[event];
}

/** Events whose hooks see one tool call: their matcher is a tool's name and an `if` can be tested. */
export function isToolEvent(event: HookEventName): boolean {
  return hookEventInfo(event).matcher === "tool name";
}
