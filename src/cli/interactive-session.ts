// One session of the interactive UI, wired as the headless one is (model, settings read once,
// permissions, hooks, MCP servers, a resumed conversation) but with the person as the answer to
// every ask: the engine's ask handler is the UI's permission queue. /clear, /resume and /model
// open another one through the same function.

import { randomUUID } from "node:crypto";
import { sessionArtifactsDir } from "../config/paths.js";
import { settingsValue } from "../config/settings.js";
import { createSession, type SessionEngine } from "../loop/session.js";
import { runSessionStartHooks, submitWithHooks } from "../loop/session-hooks.js";
import { connectMcpForSession } from "../mcp/session-setup.js";
import type { Message, ToolUseBlock, UserMessage } from "../messages/types.js";
import { applyOverride, modelInfoFor } from "../models/resolve.js";
import { runToolUse } from "../orchestration/run-tool-use.js";
import { createCanUseTool } from "../permissions/engine/index.js";
import { restoredTaskListState } from "../session/task-store.js";
import { latestSessionId, loadSession } from "../session/transcript-reader.js";
import type { AppState } from "../tool/app-state.js";
import { ReadFileState } from "../tool/read-file-state.js";
import type { AnyTool, ToolUseContext } from "../tool/types.js";
import { builtInCatalog } from "../tools/agent/catalog.js";
import { builtInTools } from "../tools/registry.js";
import type { OpenSessionOptions, PermissionQueue, SessionHandle } from "../ui/run.js";
import { loadSessionAgentCatalog } from "./agent-catalog.js";
import { loadExtraTools } from "./extra-tools.js";
import { autoModeClassifier, bindPermissions, sessionPermissions } from "./headless-permissions.js";
import { setUpLsp } from "./lsp-setup.js";
import { headlessMcpFeatures } from "./mcp-features.js";
import { defaultModelSpec, resolveModel } from "./model-choice.js";
import { modelOverrideFromSettings } from "./model-settings.js";
import type { SessionConfig } from "./session-config.js";

export async function openInteractiveSession(
  config: SessionConfig,
  permissions: PermissionQueue,
  options: OpenSessionOptions,
): Promise<SessionHandle> {
  const notices: string[] = [];
  const warn = (message: string) => void notices.push(`warning: ${message}`);
  const resumed = options.resume !== undefined ? loadResumed(config.cwd, options.resume, warn) : undefined;
  const modelSpec = options.model ?? config.model ?? resumed?.model ?? chooseDefaultModel();
  const resolved = await resolveModel(modelSpec, config.cwd);
  const setup = sessionPermissions(config);
  const taskTools = settingsValue(setup.settings, "taskTools");
  const lsp = setUpLsp(config.cwd, setup.settings, warn);
  const tools: AnyTool[] = [...builtInTools({ taskTools }), ...lsp.tools, ...(await loadExtraTools())];
  const modelOverride = modelOverrideFromSettings(setup.settings, resolved.provider.name, resolved.model);
  const known = modelInfoFor(resolved.provider.name, resolved.model);
  const modelInfo = modelOverride ? applyOverride(known, modelOverride) : known;
  // Servers may sample, ask for roots or log once connected, before the session exists.
  let sessionRef: SessionEngine | undefined;
  const mcp = await connectMcpForSession({
    cwd: config.cwd,
    mcpConfig: config.mcpConfig,
    loadedSettings: setup.settings,
    warn,
    // The UI does not answer servers' questions (elicitation) yet: they are declined with a warning.
    features: headlessMcpFeatures({
      settings: setup.settings,
      provider: resolved.provider,
      model: resolved.model,
      workingDirectories: () =>
        (sessionRef?.getAppState().toolPermissionContext ?? setup.permissionContext).workingDirectories,
      recordUsage: (usage) => sessionRef?.ledger.add(modelInfo, usage),
      warn,
      onServerLog: (message) => {
        if (config.verbose) notices.push(`MCP ${JSON.stringify(message)}`);
      },
    }),
  });
  const agentCatalog = await loadSessionAgentCatalog(config.cwd, setup.settings, warn);
  let recordEntry: (entry: { type: string; [key: string]: unknown }) => void = () => undefined;
  const canUseTool = createCanUseTool({
    askHandler: permissions.ask,
    recordDecision: (record) => recordEntry({ ...record, input: undefined }),
    onWarning: warn,
    classifier: autoModeClassifier(config),
  });
  const session = createSession({
    provider: resolved.provider,
    model: resolved.model,
    modelLabel: resolved.label,
    tools,
    mcpTools: mcp.tools,
    appState: withLoadedTools(
      {
        ...mcp.initialAppState(resumed?.messages),
        ...(resumed ? restoredTaskListState(resumed.taskList, sessionArtifactsDir(config.cwd, resumed.sessionId)) : {}),
        ...(agentCatalog ? { agentCatalog } : {}),
      },
      resumed?.loadedDeferredTools,
    ),
    canUseTool,
    cwd: config.cwd,
    sessionId: resumed?.sessionId,
    initialMessages: resumed?.messages,
    maxTurns: config.maxTurns,
    modelInfo: modelOverride,
    maxBudgetUsd: config.maxBudgetUsd,
    appendSystemPrompt: [mcp.systemPromptSection, config.appendSystemPrompt].filter(Boolean).join("\n\n") || undefined,
    permissionContext: setup.permissionContext,
    isNonInteractive: false,
    verbose: config.verbose,
    onAttachmentError: (kind, error) =>
      warn(`the ${kind} reminder was skipped: ${error instanceof Error ? error.message : String(error)}`),
  });
  sessionRef = session;
  recordEntry = (entry) => session.recordEntry(entry);
  mcp.onToolsChanged((mcpTools) => session.setMcpTools(mcpTools));
  const bound = bindPermissions(config, session);
  await runSessionStartHooks(session, bound.hooks, resumed ? "resume" : "startup", warn);
  return {
    engine: session,
    runPrompt: (prompt) => submitWithHooks(session, prompt, bound.hooks, warn),
    compact: (instructions) => session.compact(instructions),
    runShell: async (command, signal) => {
      const toolUse: ToolUseBlock = {
        type: "tool_use",
        id: `toolu_shell_${randomUUID()}`,
        name: "Bash",
        input: { command },
      };
      const abortController = new AbortController();
      signal.addEventListener("abort", () => abortController.abort("user"), { once: true });
      const context: ToolUseContext = {
        options: {
          tools: [...session.tools],
          model: session.modelLabel,
          cwd: config.cwd,
          sessionId: session.sessionId,
          sessionDir: sessionArtifactsDir(config.cwd, session.sessionId),
          isNonInteractive: false,
          verbose: config.verbose,
        },
        abortController,
        messages: session.messages,
        readFileState: new ReadFileState(),
        getAppState: () => session.getAppState(),
        setAppState: (update) => session.setAppState(update),
      };
      const { result } = await runToolUse(toolUse, context, canUseTool, undefined);
      const output = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
      const note: UserMessage = {
        role: "user",
        content: [{ type: "text", text: `The user ran a shell command: ${command}\nIts output:\n${output}` }],
      };
      // Taken into the conversation when the next prompt starts (or the running one's next request).
      session.setAppState((prev) => ({ ...prev, queuedUserMessages: [...(prev.queuedUserMessages ?? []), note] }));
      return { toolUse, result };
    },
    mcpServers: mcp.servers,
    agents: (agentCatalog ?? builtInCatalog()).agents,
    notices,
    async close() {
      await session.getAppState().backgroundTasks?.stopAll();
      session.close();
      await Promise.all([mcp.close(), lsp.close()]);
    },
  };
}

/** The session id `--continue` means: the latest of the folder. */
export function latestSession(cwd: string): string | undefined {
  return latestSessionId(cwd);
}

function chooseDefaultModel(): string {
  const choice = defaultModelSpec();
  if ("error" in choice) throw new Error(choice.error);
  return choice.spec;
}

function loadResumed(
  cwd: string,
  sessionId: string,
  warn: (message: string) => void,
): {
  sessionId: string;
  messages: Message[];
  model?: string;
  taskList?: Parameters<typeof restoredTaskListState>[0];
  loadedDeferredTools?: string[];
} {
  try {
    const loaded = loadSession(cwd, sessionId);
    for (const warning of loaded.warnings) warn(warning);
    return loaded;
  } catch (error) {
    throw new Error(`cannot resume session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Tools loaded before a compaction are named by its boundary, not by the (summarised) messages. */
function withLoadedTools(
  state: Partial<AppState>,
  loadedBeforeCompaction: readonly string[] | undefined,
): Partial<AppState> {
  if (!loadedBeforeCompaction?.length) return state;
  const loaded = [...(state.loadedDeferredTools ?? [])];
  for (const name of loadedBeforeCompaction) if (!loaded.includes(name)) loaded.push(name);
  return { ...state, loadedDeferredTools: loaded };
}
