import type { Message } from "../messages/types.js";
import type { AppState } from "./app-state.js";
import { ReadFileState } from "./read-file-state.js";
import { createSessionChannels } from "./session-channels.js";
import type { ToolUseContext, ToolUseContextOptions } from "./types.js";

/** What a session holds for its tool calls: its state and its mailboxes. */
export type SessionStore = Pick<ToolUseContext, "getAppState" | "setAppState" | "channels">;

/**
 * A store of AppState with the session's channels (./session-channels.ts), for sessions and tests;
 * `onChange` hears each update that produced a new state.
 */
export function createAppStateStore(initial: AppState, onChange?: (state: AppState) => void): SessionStore {
  let state = initial;
  return {
    channels: createSessionChannels(),
    getAppState: () => state,
    setAppState: (update) => {
      const before = state;
      state = update(state);
      if (onChange && state !== before) onChange(state);
    },
  };
}

export interface CreateContextArgs {
  options: ToolUseContextOptions;
  appState: AppState;
  messages?: Message[];
  readFileState?: ReadFileState;
  abortController?: AbortController;
}

export function createToolUseContext(args: CreateContextArgs): ToolUseContext {
  return {
    options: args.options,
    abortController: args.abortController ?? new AbortController(),
    messages: args.messages ?? [],
    readFileState: args.readFileState ?? new ReadFileState(),
    ...createAppStateStore(args.appState),
  };
}
