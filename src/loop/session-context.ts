// The context a session's tool calls run in: the session's identity and folders, its dialogs and
// helpers (subagents, side queries, fleet, editor), and its shared state (messages, file-read
// memory, AppState).
import { sessionArtifactsDir } from "../config/paths.js";
import type { Message } from "../messages/types.js";
import type { SessionStore } from "../tool/context.js";
import type { ReadFileState } from "../tool/read-file-state.js";
import type { SideQuery } from "../tool/side-query.js";
import type { AnyTool, RefusedCall, SubagentHost, ToolUseContext } from "../tool/types.js";
import type { SessionEngineOptions } from "./session-options.js";

/** What the session holds that its tool calls see. */
export interface SessionContextSource {
  options: SessionEngineOptions;
  modelLabel: string;
  sessionId: string;
  messages: Message[];
  readFileState: ReadFileState;
  store: SessionStore;
  subagents: SubagentHost;
  sideQuery: SideQuery;
  /** The session's list of refused calls, which its subagents' refusals join. */
  permissionDenials: RefusedCall[];
}

export function sessionToolUseContext(
  source: SessionContextSource,
  abortController: AbortController,
  tools: AnyTool[],
): ToolUseContext {
  const { options, store } = source;
  return {
    options: {
      tools,
      model: source.modelLabel,
      // EnterWorktree moves the session's working directory until ExitWorktree.
      cwd: store.getAppState().worktree?.path ?? options.cwd,
      sessionId: source.sessionId,
      sessionDir: sessionArtifactsDir(options.cwd, source.sessionId),
      isNonInteractive: options.isNonInteractive ?? true,
      ...(options.endsWithPrompt ? { endsWithPrompt: true } : {}),
      verbose: options.verbose ?? false,
      userDialog: options.userDialog,
      subagents: source.subagents,
      sideQuery: source.sideQuery,
      ...(options.fleet ? { fleet: options.fleet } : {}),
      ...(options.editor ? { editor: options.editor } : {}),
      reportDenial: (denial) => source.permissionDenials.push(denial),
    },
    abortController,
    messages: source.messages,
    readFileState: source.readFileState,
    getAppState: store.getAppState,
    setAppState: store.setAppState,
    channels: store.channels,
  };
}
