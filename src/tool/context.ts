import type { Message } from "../messages/types.js";
import type { AppState } from "./app-state.js";
import { ReadFileState } from "./read-file-state.js";
import type { ToolUseContext, ToolUseContextOptions } from "./types.js";

/** A simple holder for AppState, for sessions and tests that have no UI store. */
/** A store of AppState; `onChange` hears each update that produced a new state. */
export function createAppStateStore(
  initial: AppState,
  onChange?: (state: AppState) => void,
): Pick<ToolUseContext, "getAppState" | "setAppState"> {
  let state = initial;
  return {
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
