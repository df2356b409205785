// The second half of building a session, shared by every front end: MCP servers started (and
// booting while the rest is set up), skills, the tool pool, agents, the permission engine with the
// front end's answer to an ask, the engine itself, and the settings' hooks bound to it. What
// differs between front ends is passed in: who answers an ask, where warnings go, whether the
// session is interactive, and a step that may change the permission context before the engine is
// built (`-p "/skill"` grants the skill's allowed-tools).
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sessionArtifactsDir } from "../../config/paths.js";
import { pluginOutputStylePaths } from "../../config/plugins/components.js";
import { settingsFileLocations, settingsValue } from "../../config/settings.js";
import { createSessionCommands, type SessionCommands } from "../../control/session-commands.js";
import type { HookRunner, SessionEndReason } from "../../hooks/hook-runner.js";
import { createHookModels } from "../../hooks/session-hook-models.js";
import type { CompactOutcome } from "../../loop/context-manager.js";
import type { QueryEvent, TerminalEvent } from "../../loop/events.js";
import { createSession, type SessionEngine } from "../../loop/session.js";
import { runSessionEndHooks, runSessionStartHooks, runSetupHooks, submitWithHooks } from "../../loop/session-hooks.js";
import type { McpClientFeatures, ServerLogMessage } from "../../mcp/client-features/types.js";
import { connectMcpForSession, type McpSession } from "../../mcp/session-setup.js";
import { type AskHandler, createCanUseTool } from "../../permissions/engine/index.js";
import { applyPermissionUpdates, persistPermissionUpdate } from "../../permissions/settings/index.js";
import { restoredTaskListState } from "../../session/task-store.js";
import type { AgentCatalog } from "../../tool/agents.js";
import type { EditorAccess } from "../../tool/editor.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import type { AnyTool, CanUseTool } from "../../tool/types.js";
import { builtInTools } from "../../tools/registry.js";
import { isAgentTeamsEnabled } from "../../tools/team-shared/enabled.js";
import { traceFirstRequest } from "../startup/timing.js";
import { warmUpWhileWaiting, watchRequests } from "../startup/warm-up.js";
import { collectYoungGenerationWhileWaiting } from "../startup/young-gc.js";
import { teammateMode, teammateRunnerFor } from "../teammates/mode.js";
import { loadSessionAgentCatalog } from "./agent-catalog.js";
import { loadExtraTools } from "./extra-tools.js";
import { configuredFleetUrl, lazyFleetAccess } from "./fleet-access.js";
import { setUpLsp } from "./lsp-setup.js";
import { headlessMcpFeatures, sessionRoots } from "./mcp-features.js";
import { planModeModelFollower } from "./opusplan.js";
import { autoModeClassifier, bindPermissions } from "./permissions.js";
import type { SessionPlan } from "./plan.js";
import { restoredReads } from "./restore-read-state.js";
import { withToolsLoadedBefore } from "./resume.js";
import { skillArrivalSource } from "./skill-arrival.js";
import type { SessionSkills } from "./skills-setup.js";
import { setUpSkills } from "./skills-setup.js";
import { switchModel } from "./switch-model.js";
import { type SwitchableProvider, switchableProvider } from "./switchable-provider.js";
import { smallFastModelSetting, webToolOptions } from "./web-tools.js";

export interface StartOptions {
  /** Who settles an ask the rules and modes leave open (nobody in -p: denied with a reason). */
  askHandler: AskHandler;
  /** False for the interactive UI: the tools and prompts may count on a person being there. */
  isNonInteractive: boolean;
  /** True for `warden -p`: the process ends once its prompt is answered. */
  endsWithPrompt?: boolean;
  /** A warning for the person (a skipped skill, a broken hook). */
  warn: (message: string) => void;
  /** What MCP set-up reports (a server that did not start); `warn` when not given. */
  mcpWarn?: (message: string) => void;
  /** Who answers MCP servers' questions (elicitation); none: they are declined with a warning. */
  onElicitation?: McpClientFeatures["onElicitation"];
  /** Asks the person whether a server may sample (absent: only servers settings name may). */
  approveSampling?: McpClientFeatures["approveSampling"];
  /** A server's URL-mode question was completed (the SDK is told with a system line). */
  onElicitationComplete?: McpClientFeatures["onElicitationComplete"];
  /** Log messages of MCP servers, at the level settings ask for. */
  onServerLog?: (message: ServerLogMessage) => void;
  /**
   * Servers whose tools the project's last session remembers finish their handshake once the
   * first request is on the wire (headless start-up); otherwise every server is connected before
   * the session starts.
   */
  deferMcpHandshake?: boolean;
  /** Re-arm this project's durable scheduled tasks (only when their file exists). */
  armDurableTasks?: boolean;
  /** Run after skills are known and before the engine is built; may return a wider context. */
  beforeCreate?: (ready: {
    skills: SessionSkills;
    permissionContext: ToolPermissionContext;
    /** The session's hooks (a `-p "/name"` prompt's UserPromptExpansion hooks run here). */
    hooks?: HookRunner;
  }) => Promise<ToolPermissionContext> | ToolPermissionContext;
  /** Tools beyond the built-in pool. */
  extraTools?: readonly AnyTool[];
  /** MCP tools served outside the settings' servers (the Agent SDK's in-process servers). */
  extraMcpTools?: readonly AnyTool[];
  /** Replaces the system prompt (--system-prompt, or the SDK's initialize). */
  systemPrompt?: string;
  /** Added to the system prompt (--append-system-prompt, or the SDK's initialize). */
  appendSystemPrompt?: string;
  /** The editor driving the session over ACP: its files and terminals, for the tools. */
  editor?: EditorAccess;
  /** Custom agents (--agents, or the SDK's initialize), over the settings' agents of the same names. */
  agents?: Record<string, unknown>;
  /** False: no socket for other sessions' messages even with teams on (a teammate's own process). */
  listenForSessions?: boolean;
}

export interface BuiltSession {
  plan: SessionPlan;
  session: SessionEngine;
  /** What front ends change in the running session (mode, model, rules, queued messages...). */
  commands: SessionCommands;
  /** The model requests go to; the SDK's set_model switches it. */
  provider: SwitchableProvider;
  canUseTool: CanUseTool;
  mcp: McpSession;
  skills: SessionSkills;
  agentCatalog?: AgentCatalog;
  /** The output style in force, by name ("default" when none): fixed for the session. */
  outputStyle: string;
  /**
   * Setup hooks (--init, --maintenance), then SessionStart hooks ("resume" when the session
   * continues one), their context queued for the model.
   */
  runStartHooks(): Promise<void>;
  /**
   * One prompt with the settings' UserPromptSubmit and Stop hooks around it; without a prompt, the
   * turn an idle session takes for what arrived (Stop hooks only; see SessionEngine.wakeDue).
   */
  runPrompt(prompt: string | undefined): AsyncGenerator<QueryEvent, TerminalEvent | undefined>;
  compact(instructions?: string): AsyncGenerator<QueryEvent, CompactOutcome>;
  /** Replaces the MCP tools served outside the manager's servers (the SDK's in-process servers). */
  setExtraMcpTools(tools: readonly AnyTool[]): void;
  /** SessionEnd hooks run (bounded), transcript closed and MCP servers stopped. */
  close(reason?: SessionEndReason): Promise<void>;
}

export async function startSession(plan: SessionPlan, options: StartOptions): Promise<BuiltSession> {
  const { config, resumed, resolved, permissions } = plan;
  const warn = options.warn;
  const provider = switchableProvider(resolved, plan.fallback);
  const firstRequest = watchRequests(collectYoungGenerationWhileWaiting(traceFirstRequest(provider)));
  // Filled in below: servers may log, sample or ask for roots once connected, before the session exists.
  let sessionRef: SessionEngine | undefined;
  // Elicitation hooks answer servers' questions once the session's hooks are bound (below).
  let hooksRef: HookRunner | undefined;
  const rootsNow = () => {
    const state = sessionRef?.getAppState();
    return sessionRoots(config.cwd, state, state?.toolPermissionContext ?? permissions.permissionContext);
  };
  // Servers are told when the roots change (EnterWorktree, ExitWorktree, a folder added), once per change.
  let rootsKey = "";
  let mcpForRoots: McpSession | undefined;
  const followRoots = () => {
    const key = rootsNow().join("\0");
    if (key === rootsKey) return;
    rootsKey = key;
    void mcpForRoots?.rootsChanged();
  };
  const mcpStarting = connectMcpForSession({
    cwd: config.cwd,
    mcpConfig: config.mcpConfig,
    loadedSettings: permissions.settings,
    warn: options.mcpWarn ?? warn,
    features: headlessMcpFeatures({
      settings: permissions.settings,
      provider: resolved.provider,
      model: resolved.model,
      workingDirectories: () => rootsNow(),
      recordUsage: (usage) => sessionRef?.ledger.add(plan.modelInfo, usage),
      warn: options.mcpWarn ?? warn,
      onServerLog: (message) => options.onServerLog?.(message),
      ...(options.onElicitation && { onElicitation: options.onElicitation }),
      ...(options.onElicitationComplete && { onElicitationComplete: options.onElicitationComplete }),
      ...(options.approveSampling && { approveSampling: options.approveSampling }),
      hooks: () => hooksRef,
    }),
    ...(options.deferMcpHandshake ? { handshakeAfter: firstRequest.sent } : {}),
    strict: config.strictMcpConfig,
  });
  // Awaited below; until then a failure must not count as unhandled.
  mcpStarting.catch(() => undefined);
  // Which language servers may start here; none starts, and no LSP code loads, before the first LSP call.
  const lsp = setUpLsp(config.cwd, permissions.settings, warn);
  const fleetUrl = configuredFleetUrl(permissions.settings);
  const fleet = fleetUrl ? lazyFleetAccess(fleetUrl, warn) : undefined;
  try {
    const taskTools = settingsValue(permissions.settings, "taskTools");
    const skills = await setUpSkills(config.cwd, permissions.settings, warn);
    // Without a Skill tool, nothing would notice a skill written while the session runs.
    const skillArrival =
      skills.tools.length === 0
        ? skillArrivalSource({
            cwd: config.cwd,
            atStart: skills.catalog,
            addTools: (added) => sessionRef?.addTools(added),
          })
        : undefined;
    // Code mode (docs/code-mode.md): REPL offered; with mcpOnly, MCP tools only through it.
    const codeModeSettings = settingsValue(permissions.settings, "codeMode");
    const codeMode = config.codeMode || codeModeSettings?.enabled === true;
    const mcpOnlyInCode = codeMode && codeModeSettings?.mcpOnly === true;
    const offeredMcp = (all: readonly AnyTool[]): AnyTool[] => (mcpOnlyInCode ? [] : [...all]);
    const builtIn = builtInTools({
      taskTools,
      ...(codeMode
        ? { codeMode: mcpOnlyInCode ? { codeOnlyTools: () => [...managedMcpTools, ...extraMcpTools] } : {} }
        : {}),
      powerShell: settingsValue(permissions.settings, "powerShell") === true,
      brief: config.brief || settingsValue(permissions.settings, "brief") === true,
      teams: isAgentTeamsEnabled(settingsValue(permissions.settings, "agentTeams")),
      fleet: fleet !== undefined,
      ...webToolOptions(permissions.settings, resolved.provider.name),
    });
    const tools: AnyTool[] = [
      // --tools: only the built-in tools named (an empty list: none).
      ...(config.tools ? builtIn.filter((tool) => config.tools?.includes(tool.name)) : builtIn),
      ...(plan.structured ? [plan.structured.tool] : []),
      ...skills.tools,
      ...lsp.tools,
      ...(options.extraTools ?? []),
      ...(await loadExtraTools()),
    ];
    // --fork-session: the conversation goes on under a new id (given with --session-id, or new).
    // Chosen here, not by the session: restored agents' tasks need its folder now, and hooks that
    // run before the session exists (a `-p "/name"` prompt's UserPromptExpansion) report it.
    const sessionId = resumed && !config.forkSession ? resumed.sessionId : (config.sessionId ?? randomUUID());
    permissions.hooks?.bindSession({ sessionId });
    const permissionContext =
      (await options.beforeCreate?.({
        skills,
        permissionContext: permissions.permissionContext,
        hooks: permissions.hooks,
      })) ?? permissions.permissionContext;
    warmUpWhileWaiting(firstRequest, tools);
    const mcp = await mcpStarting;
    const agentCatalog = await loadSessionAgentCatalog(
      config.cwd,
      permissions.settings,
      warn,
      options.agents ??
        (config.agents !== undefined ? (JSON.parse(config.agents) as Record<string, unknown>) : undefined),
    );
    let extraMcpTools = options.extraMcpTools ?? [];
    let managedMcpTools: readonly AnyTool[] = mcp.tools;
    const canUseTool = createCanUseTool({
      askHandler: options.askHandler,
      // The call's input is already in the transcript with its tool_use; the id links the two.
      recordDecision: (record) => sessionRef?.recordEntry({ ...record, input: undefined }),
      onWarning: warn,
      classifier: autoModeClassifier(config),
      // "Don't ask again" goes to the settings of the session's folder, the ones it read: not to
      // those of the asking agent's folder (a worktree of its own, or where the shell had moved).
      persistUpdate: (update) => void persistPermissionUpdate(update, config.cwd),
      // An answer given in a subagent's dialog holds for the whole session (the parent and the
      // agents started later), as the dialog promised; rules and folders only: the mode an answer
      // switches to stays the asking agent's. Adding a rule or folder twice changes nothing.
      onAnswerUpdates: (updates) => {
        const lasting = updates.filter((update) => update.type !== "setMode");
        if (lasting.length === 0) return;
        sessionRef?.setAppState((prev) => ({
          ...prev,
          toolPermissionContext: applyPermissionUpdates(prev.toolPermissionContext, lasting, config.cwd),
        }));
      },
    });
    // A resumed lead takes up its team again (loaded only then: most sessions have none).
    const teams = isAgentTeamsEnabled(settingsValue(permissions.settings, "agentTeams"));
    const restoredTeam =
      resumed && teams
        ? (await import("../../session/team-files.js")).restoredTeamState(
            sessionArtifactsDir(config.cwd, resumed.sessionId),
          )
        : {};
    // Background agents of the earlier process come back as ended tasks TaskOutput can read.
    const restoredAgents = resumed
      ? await (await import("./resume-agents.js")).restoredAgentState(
          config.cwd,
          resumed.sessionId,
          sessionId ?? resumed.sessionId,
        )
      : {};
    const styleWarnings: string[] = [];
    // The output style is fixed for the session (its text is part of the cached system prompt).
    const styleName = settingsValue(permissions.settings, "outputStyle");
    const outputStyle =
      styleName === undefined
        ? { name: "default" }
        : (await import("../../config/output-styles.js")).chooseOutputStyle(
            styleName,
            config.cwd,
            styleWarnings,
            pluginOutputStylePaths(permissions.settings.plugins?.plugins ?? [], (w) => styleWarnings.push(w)),
          );
    const styleSection = outputStyle.section;
    for (const warning of styleWarnings.splice(0)) warn(warning);
    const followPlanMode = planModeModelFollower(plan, provider, () => sessionRef);
    const customPrompt = options.systemPrompt ?? config.systemPrompt;
    const userAppend = options.appendSystemPrompt ?? config.appendSystemPrompt;
    const session = createSession({
      provider: firstRequest.provider,
      model: resolved.model,
      modelLabel: resolved.label,
      smallFastModel: smallFastModelSetting(permissions.settings, resolved.provider.name),
      tools,
      mcpTools: offeredMcp([...mcp.tools, ...extraMcpTools]),
      appState: withToolsLoadedBefore(
        {
          ...mcp.initialAppState(resumed?.messages),
          ...(resumed
            ? restoredTaskListState(resumed.taskList, sessionArtifactsDir(config.cwd, resumed.sessionId))
            : {}),
          ...restoredTeam,
          ...restoredAgents,
          ...(agentCatalog ? { agentCatalog } : {}),
        },
        resumed?.loadedDeferredTools,
      ),
      canUseTool,
      cwd: config.cwd,
      sessionId,
      initialMessages: resumed?.messages,
      recordInitialMessages: resumed !== undefined && config.forkSession,
      transcript: !config.noSessionPersistence,
      maxTurns: config.maxTurns,
      modelInfo: plan.modelOverride,
      maxBudgetUsd: config.maxBudgetUsd,
      ...(config.thinking && { thinking: config.thinking }),
      ...(customPrompt !== undefined && { systemPrompt: customPrompt }),
      // --system-prompt keeps CLAUDE.md and --append-system-prompt after it, as in Claude Code.
      ...(options.systemPrompt === undefined && config.systemPrompt !== undefined && { customPromptContext: true }),
      // A custom prompt replaces the built-in sections (MCP servers' instructions, the output style).
      appendSystemPrompt:
        (customPrompt !== undefined ? [userAppend] : [mcp.systemPromptSection, styleSection, userAppend])
          .filter(Boolean)
          .join("\n\n") || undefined,
      permissionContext,
      isNonInteractive: options.isNonInteractive,
      ...(options.endsWithPrompt && { endsWithPrompt: true }),
      // The MCP client is loaded only when an agent with servers of its own runs.
      agentMcpServers: async (...args) => (await import("../../mcp/agent-servers.js")).startAgentMcpServers(...args),
      // From the session's own catalog (its trust, its plugins); loaded when such an agent first runs.
      preloadSkills: async (...args) =>
        (await import("../../tools/skill/preload.js")).preloadAgentSkills(skills.catalog, ...args),
      ...(teams && { teammateRunner: teammateRunnerFor(teammateMode(config, permissions.settings), config, warn) }),
      ...(fleet ? { fleet: fleet.access } : {}),
      ...(options.editor ? { editor: options.editor } : {}),
      verbose: config.verbose,
      onAppStateChange: (state) => {
        followRoots();
        followPlanMode?.(state);
      },
      ...(skillArrival ? { attachmentSources: [skillArrival] } : {}),
      onAttachmentError: (kind, error) =>
        warn(`the ${kind} reminder was skipped: ${error instanceof Error ? error.message : String(error)}`),
      onMemoryNotice: warn,
    });
    sessionRef = session;
    // A session that starts in plan mode starts on opusplan's plan model.
    followPlanMode?.(session.getAppState());
    if (resumed?.toolResultTimes)
      for (const { path, record } of restoredReads(resumed.messages, resumed.toolResultTimes, config.cwd))
        session.seedFileRead(path, record);
    rootsKey = rootsNow().join("\0");
    mcpForRoots = mcp;
    mcp.onToolsChanged((mcpTools, instructions) => {
      managedMcpTools = mcpTools;
      session.setMcpTools(offeredMcp([...mcpTools, ...extraMcpTools]));
      // Told to the model as a delta (mcp_instructions_delta), never by rewriting the system prompt.
      session.setAppState((state) => ({ ...state, mcpInstructions: instructions }));
    });
    const bound = bindPermissions(config, session);
    bound.hooks?.bindModels(createHookModels(session, canUseTool));
    hooksRef = bound.hooks;
    // FileChanged hooks: the files they name (and hooks' watchPaths) are watched; no watcher without them.
    const fileWatcher = bound.hooks?.has("FileChanged")
      ? (await import("../../hooks/file-changed.js")).watchChangedFiles(bound.hooks, {
          matchers: bound.hooks.matchersOf("FileChanged"),
          cwd: config.cwd,
          onEnv: (env) =>
            // The shell's environment is captured once; dropping the capture makes the next command see these.
            session.setAppState((state) => ({
              ...state,
              toolEnv: { ...state.toolEnv, ...env },
              bashShellSnapshot: undefined,
            })),
          onWarning: warn,
        })
      : undefined;
    // ConfigChange hooks hear of settings files changed on disk while the session runs.
    const stopWatchingSettings = bound.hooks?.has("ConfigChange")
      ? (await import("../../hooks/config-change.js")).watchSettingsFiles(
          bound.hooks,
          settingsFileLocations({
            cwd: config.cwd,
            extraSettings: config.settings !== undefined ? [config.settings] : [],
          }),
          warn,
        )
      : undefined;
    const commands = createSessionCommands(session, {
      switchModel: (name) => switchModel({ plan, provider, session }, name),
    });
    // With teams on, other sessions may message this one (each message asks the user first).
    const inbox =
      teams && options.listenForSessions !== false
        ? (await import("./inbox.js")).openSessionInbox(session, commands, options.askHandler, warn)
        : undefined;
    // Durable scheduled tasks of this project come back (only when its file exists: croner loads then).
    if (options.armDurableTasks && existsSync(join(config.cwd, ".warden", "scheduled_tasks.json"))) {
      const { armDurableTasks } = await import("../../tools/cron-shared/rearm.js");
      for (const warning of await armDurableTasks(session, config.cwd)) warn(warning);
    }
    return {
      plan,
      session,
      outputStyle: outputStyle.name,
      commands,
      provider,
      canUseTool,
      mcp,
      skills,
      agentCatalog,
      async runStartHooks() {
        // --init / --maintenance: the Setup hooks first (--init-only never gets this far).
        if (config.setup === "init" || config.setup === "maintenance") {
          await runSetupHooks(session, bound.hooks, config.setup, warn);
        }
        await runSessionStartHooks(session, bound.hooks, resumed ? "resume" : "startup", warn);
      },
      runPrompt: (prompt) => submitWithHooks(session, prompt, bound.hooks, warn),
      compact: (instructions) => session.compact(instructions),
      setExtraMcpTools(tools) {
        extraMcpTools = tools;
        session.setMcpTools(offeredMcp([...managedMcpTools, ...extraMcpTools]));
      },
      async close(reason: SessionEndReason = "other") {
        stopWatchingSettings?.();
        fileWatcher?.stop();
        await runSessionEndHooks(bound.hooks, reason, warn);
        // Teammates and background agents stop with the session, their ends recorded.
        inbox?.close();
        await session.stopAgents();
        session.close();
        await Promise.all([mcp.close(), lsp.close(), fleet?.close()]);
      },
    };
  } catch (error) {
    // Nothing will use the servers already starting: stop them rather than leave them running.
    void mcpStarting.then(
      (mcp) => mcp.close(),
      () => undefined,
    );
    throw error;
  }
}
