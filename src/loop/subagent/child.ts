// What every child agent is made of, for a one-shot subagent (./run.ts) and a teammate
// (./teammate.ts) alike: its model, its own abort controller (under the parent call's unless it
// runs detached), AppState (the parent's permissions and shared services, its own reminders and
// shell directory), system prompt or a fork's frozen prefix, first messages, and the sidechain
// transcript its messages go to, beside the session's.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadMemoryFiles } from "../../config/memory.js";
import { sessionArtifactsDir } from "../../config/paths.js";
import { readableMemoryFiles } from "../../context/memory-access.js";
import { queueReminders } from "../../hooks/queue-reminders.js";
import { type Message, userText } from "../../messages/types.js";
import { type ModelInfo, modelInfoFor } from "../../models/resolve.js";
import type { Provider, RequestAgent } from "../../providers/types.js";
import { TranscriptWriter } from "../../session/transcript.js";
import { FORK_QUERY_SOURCE } from "../../tool/agents.js";
import type { AppState } from "../../tool/app-state.js";
import { createAppStateStore } from "../../tool/context.js";
import type { SubagentRequest, ToolUseContext } from "../../tool/types.js";
import type { QueryParams } from "../query.js";
import { type RequestPrefix, RequestPrefixCache } from "../request-prefix.js";
import { buildSystemPrompt, findGitRoot } from "../system-prompt.js";
import { agentPromptExtras } from "./agent-extras.js";
import type { SubagentDeps } from "./deps.js";

/** Where a subagent's sidechain transcript is kept: beside the session's artifacts. */
export function sidechainPath(cwd: string, sessionId: string, agentId: string): string {
  return join(sessionArtifactsDir(cwd, sessionId), "subagents", `${agentId}.jsonl`);
}

interface ChildModel {
  provider: Provider;
  model: string;
  label: string;
}

async function childModel(deps: SubagentDeps, spec: string | undefined, cwd: string): Promise<ChildModel> {
  if (spec === undefined || spec === deps.modelLabel) {
    return { provider: deps.provider, model: deps.model, label: deps.modelLabel };
  }
  const colon = spec.indexOf(":");
  const providerName = spec.slice(0, colon);
  // The same provider serves another of its models: no second client.
  if (providerName === deps.provider.name)
    return { provider: deps.provider, model: spec.slice(colon + 1), label: spec };
  const { resolveProvider } = await import("../../providers/resolve.js");
  const resolved = await resolveProvider(spec, { cwd });
  return { provider: resolved.provider, model: resolved.model, label: `${resolved.providerName}:${resolved.model}` };
}

/** The child's AppState: the parent's permissions (mode as decided) and shared services, nothing of its turn. */
function childAppState(parent: AppState, request: SubagentRequest, cwd: string): AppState {
  return {
    toolPermissionContext: {
      ...parent.toolPermissionContext,
      mode: request.permissionMode,
      ...(request.workingDirectories ? { workingDirectories: [...request.workingDirectories] } : {}),
      ...(request.confinedFrom ? { confinedFrom: [...request.confinedFrom] } : {}),
    },
    // An agent's own hooks join the session's for its run only.
    hooks:
      request.definition.hooks && parent.hooks?.forAgent
        ? parent.hooks.forAgent(request.definition.hooks)
        : parent.hooks,
    compactHooks: parent.compactHooks,
    autoModeCircuitTripped: parent.autoModeCircuitTripped,
    sandboxSettings: parent.sandboxSettings,
    bashShellSnapshot: parent.bashShellSnapshot,
    toolEnv: parent.toolEnv,
    backgroundTasks: parent.backgroundTasks,
    taskStore: parent.taskStore,
    toolSearchMode: parent.toolSearchMode,
    mcpInstructions: parent.mcpInstructions,
    agentCatalog: parent.agentCatalog,
    bashCwd: cwd,
    // A fork sends the parent's results exactly as the parent did: the same frozen budget decisions.
    ...(request.fork ? { toolResultReplacements: parent.toolResultReplacements } : {}),
  };
}

/** Aborting `parent` aborts `child` (with its reason); returns the unlink. */
function linkAbort(parent: AbortSignal, child: AbortController): () => void {
  if (parent.aborted) {
    child.abort(parent.reason);
    return () => {};
  }
  const onAbort = () => child.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return () => parent.removeEventListener("abort", onAbort);
}

/** The fork's prefix: the parent's rendered bytes, never rebuilt (a rebuild could differ). */
function frozenPrefix(rendered: RequestPrefix): RequestPrefixCache {
  const cache = new RequestPrefixCache(async () => rendered.system);
  cache.prefixFor = async () => rendered;
  return cache;
}

export interface ChildSetup {
  context: ToolUseContext;
  prefix: RequestPrefixCache;
  /** The conversation the child starts with. */
  messages: Message[];
  modelInfo: ModelInfo;
  provider: Provider;
  model: string;
  agent: RequestAgent;
  transcript: TranscriptWriter | undefined;
  transcriptPath: string;
  /** Detaches the child's abort controller from the parent call's. */
  unlink: () => void;
  /** Stops the MCP servers started for this agent alone (its frontmatter's definitions). */
  stopServers: () => Promise<void>;
}

export interface ChildOptions {
  /** Set over the AppState made from the parent's (a teammate's team, its task list, its plan file). */
  appState?: Partial<AppState>;
  /** Added after the definition's system prompt (a teammate's part in its team). */
  introSuffix?: string;
  /** Written as the sidechain's first entry besides the common fields. */
  entry?: Record<string, unknown>;
}

export async function setUpChild(
  deps: SubagentDeps,
  request: SubagentRequest,
  parent: ToolUseContext,
  options: ChildOptions = {},
): Promise<ChildSetup> {
  const cwd = request.cwd ?? parent.getAppState().bashCwd ?? parent.options.cwd;
  const chosen = await childModel(deps, request.modelSpec, cwd);
  const modelInfo =
    chosen.label === deps.modelLabel ? deps.modelInfo : modelInfoFor(chosen.provider.name, chosen.model);
  const abortController = new AbortController();
  // A background agent outlives the call that started it; its own stop comes through its task.
  const unlink = request.background ? () => {} : linkAbort(parent.abortController.signal, abortController);
  const parentState = parent.getAppState();
  const store = createAppStateStore({ ...childAppState(parentState, request, cwd), ...options.appState });
  const fork = request.fork && parent.renderedRequest ? parent.renderedRequest : undefined;
  const context: ToolUseContext = {
    options: { ...parent.options, tools: request.tools, model: chosen.label, cwd },
    abortController,
    messages: [],
    // The child knows what the parent read (read-before-write holds across the hand-over).
    readFileState: parent.readFileState.clone(),
    ...store,
    agentId: request.agentId,
    querySource: request.fork ? FORK_QUERY_SOURCE : `agent:${request.definition.agentType}`,
  };
  if (request.onStart) request.onStart(abortController);

  let prefix: RequestPrefixCache;
  let messages: Message[];
  if (fork && request.fork) {
    prefix = frozenPrefix({ system: fork.system, tools: [...fork.tools] } as RequestPrefix);
    messages = [...fork.messages, ...request.fork.messages];
  } else {
    const memory = request.definition.omitMemory || !deps.loadMemory ? [] : loadMemoryFiles(cwd);
    const workingDirectories = store.getAppState().toolPermissionContext.workingDirectories;
    const environment = {
      cwd,
      platform: process.platform,
      date: deps.startDate,
      gitRoot: findGitRoot(cwd),
      model: chosen.label,
      additionalDirectories: workingDirectories.filter((dir) => dir !== cwd),
    };
    // Preloaded skills' `!`cmd`` lines run as the agent: its context, its permission path.
    const preload = deps.preloadSkills;
    const extras = await agentPromptExtras(
      request.definition,
      cwd,
      preload && ((names) => preload(names, context, request.canUseTool)),
    );
    const intro = [request.definition.systemPrompt, extras, options.introSuffix]
      .filter((part): part is string => part !== undefined && part !== "")
      .join("\n\n");
    const allowed = readableMemoryFiles(memory, parentState.toolPermissionContext, parent.options.tools);
    prefix = new RequestPrefixCache(async (split) =>
      buildSystemPrompt({ environment, memory: await allowed, intro }, split),
    );
    // A teammate taken up again goes on from its conversation; anyone else starts from the prompt.
    messages = request.history
      ? [...request.history, ...(request.followUp !== undefined ? [userText(request.followUp)] : [])]
      : [userText(request.prompt)];
  }

  const transcriptPath = sidechainPath(deps.sessionCwd, deps.sessionId, request.agentId);
  const transcript = deps.transcripts
    ? new TranscriptWriter(transcriptPath, {
        sessionId: deps.sessionId,
        cwd,
        model: chosen.label,
        agentId: request.agentId,
      })
    : undefined;
  // Taken up again: its file goes on (after a "resume" line); a new file (--fork-session) starts whole.
  const continuing = request.history !== undefined && existsSync(transcriptPath);
  if (continuing)
    transcript?.recordEntry({
      type: "agent_resumed",
      agentId: request.agentId,
      // A background run's task from now on (a resumed session lists this one, not the first).
      ...(request.task ? { taskId: request.task.id, outputPath: request.task.outputPath } : {}),
    });
  else
    transcript?.recordEntry({
      type: "agent",
      agentId: request.agentId,
      agentType: request.definition.agentType,
      description: request.description,
      parentToolUseId: parent.toolUseId,
      background: request.background,
      fork: request.fork !== undefined,
      ...(request.name !== undefined ? { name: request.name } : {}),
      ...(request.task ? { taskId: request.task.id, outputPath: request.task.outputPath } : {}),
      ...(request.modelSpec !== undefined ? { model: request.modelSpec } : {}),
      ...options.entry,
    });
  // A fork's inherited history is the parent's (already in its transcript); only what is new is kept.
  const recorded = request.fork
    ? request.fork.messages
    : continuing
      ? messages.slice(request.history?.length ?? messages.length)
      : messages;
  for (const message of recorded) transcript?.recordMessage(message);

  // The agent's own MCP servers: started now (after everything that could fail), theirs alone.
  let stopServers = async () => {};
  if (request.definition.inlineMcpServers) {
    const servers = deps.agentMcpServers
      ? await deps.agentMcpServers(request.definition, request.tools, cwd, parentState.toolEnv)
      : {
          tools: request.tools,
          problems: [`agent ${request.definition.agentType}: this session cannot start MCP servers for an agent`],
          stop: async () => {},
        };
    if (servers) {
      context.options = { ...context.options, tools: servers.tools };
      // The agent hears which of its servers it lacks (the transcript keeps the same words).
      for (const error of servers.problems)
        transcript?.recordEntry({ type: "mcp_error", agentId: request.agentId, error });
      queueReminders(context, servers.problems);
      stopServers = servers.stop;
    }
  }

  const agent: RequestAgent = {
    agentId: request.agentId,
    agentType: request.definition.agentType,
    description: request.description,
    ...(request.name ? { name: request.name } : {}),
  };
  return {
    context,
    prefix,
    messages,
    modelInfo,
    provider: chosen.provider,
    model: chosen.model,
    agent,
    transcript,
    transcriptPath,
    unlink,
    stopServers,
  };
}

/** The query() parameters of a child's loop over `messages`. */
export function childQueryParams(
  deps: SubagentDeps,
  setup: ChildSetup,
  request: SubagentRequest,
  messages: readonly Message[],
): QueryParams {
  return {
    messages,
    provider: setup.provider,
    model: setup.model,
    context: setup.context,
    canUseTool: request.canUseTool,
    prefix: setup.prefix,
    maxTurns: request.maxTurns,
    maxOutputTokens: deps.maxOutputTokens,
    modelInfo: setup.modelInfo,
    ledger: deps.ledger,
    contextManagement: deps.contextManagement,
    now: deps.now,
    agent: setup.agent,
  };
}
