// `warden -p "<prompt>"`: one headless session. Exit codes: 0 success, 1 the session ended in
// error (turn limit, model failure, ...), 2 bad usage, 130 interrupted (Ctrl+C).
// Static on purpose: a headless run needs all of these before its first request, and each
// dynamic import() is one more module file for the loader to fetch and link at start-up.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { sessionArtifactsDir } from "../../config/paths.js";
import { settingsValue } from "../../config/settings.js";
import { isDirectory } from "../../fs/path-kind.js";
import type { CompactBoundaryEvent, TerminalEvent } from "../../loop/events.js";
import { createSession } from "../../loop/session.js";
import { connectMcpForSession } from "../../mcp/session-setup.js";
import type { Message } from "../../messages/types.js";
import { budgetProblem } from "../../models/budget.js";
import { applyOverride, modelInfoFor } from "../../models/resolve.js";
import { restoredTaskListState } from "../../session/task-store.js";
import type { AppState } from "../../tool/app-state.js";
import type { TaskListSnapshot } from "../../tool/task-list.js";
import type { AnyTool } from "../../tool/types.js";
import { builtInCatalog } from "../../tools/agent/catalog.js";
import { builtInTools } from "../../tools/registry.js";
import { loadSessionAgentCatalog } from "../agent-catalog.js";
import { loadExtraTools } from "../extra-tools.js";
import { HeadlessReporter, workspaceTrustLine } from "../headless-output.js";
import {
  buildHeadlessCanUseTool,
  runCompactWithPermissions,
  runPromptWithPermissions,
  sessionPermissions,
} from "../headless-permissions.js";
import { setUpLsp } from "../lsp-setup.js";
import { headlessMcpFeatures } from "../mcp-features.js";
import { defaultModelSpec, resolveModel } from "../model-choice.js";
import { modelOverrideFromSettings } from "../model-settings.js";
import { readPrompt, stdinIsTerminal } from "../prompt-input.js";
import { parseSessionArgs, type SessionConfig, UsageError, usageText } from "../session-config.js";
import { expandPrompt, setUpSkills } from "../skills-setup.js";
import {
  type StructuredOutputSetup,
  setUpStructuredOutput,
  shouldNudge,
  structuredOutputOf,
} from "../structured-output.js";
import { traceFirstRequest } from "../timing.js";
import { wardenVersion } from "../version.js";
import { warmUpWhileWaiting, watchRequests } from "../warm-up.js";

// Set when whoever reads our output has gone (`warden -p ... | head -1`): nothing more is written.
let outputClosed = false;
const out = (text: string) => {
  if (!outputClosed) process.stdout.write(text);
};
const err = (text: string) => void process.stderr.write(text);

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export async function run(argv: string[]): Promise<number> {
  const startedAt = performance.now();
  let config: SessionConfig;
  try {
    config = parseSessionArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`warden: ${error.message}\n\n${usageText()}`);
    return 2;
  }
  if (config.help) {
    out(usageText());
    return 0;
  }
  if (config.version) {
    out(`${wardenVersion()}\n`);
    return 0;
  }
  try {
    return await runHeadless(config, startedAt);
  } catch (error) {
    if (error instanceof CliError) {
      err(`warden: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

async function runHeadless(config: SessionConfig, startedAt: number): Promise<number> {
  if (!isDirectory(config.cwd)) throw new CliError(`--cwd ${config.cwd} is not a directory`, 2);
  if (!config.print && stdinIsTerminal()) return interactiveNeedsTerminal();
  const prompt = await readPrompt(config.prompt);
  if (prompt === undefined || prompt.trim() === "") {
    if (!config.print) return interactiveNeedsTerminal();
    throw new CliError('no prompt: pass it after -p ("warden -p \\"...\\"") or on stdin', 2);
  }

  const resumed = await loadResumed(config);
  const modelSpec = config.model ?? resumed?.model ?? settingsModel(config) ?? chooseDefaultModel();
  const resolved = await resolveModel(modelSpec, config.cwd).catch((error: unknown) => {
    throw new CliError(error instanceof Error ? error.message : String(error), 1);
  });
  // Settings are read once, here: broken ones stop the session before any MCP server is started,
  // and the MCP set-up takes its servers and tool-search mode from the same read.
  const permissions = sessionPermissions(config);
  const firstRequest = watchRequests(traceFirstRequest(resolved.provider));
  const provider = firstRequest.provider;
  const modelOverride = modelOverrideFromSettings(permissions.settings, provider.name, resolved.model);
  const knownModelInfo = modelInfoFor(provider.name, resolved.model);
  const modelInfo = modelOverride ? applyOverride(knownModelInfo, modelOverride) : knownModelInfo;
  if (config.maxBudgetUsd !== undefined) {
    // Checked before any MCP server starts: a budget that cannot be kept is a usage error.
    const problem = budgetProblem(config.maxBudgetUsd, modelInfo, resolved.label);
    if (problem) throw new CliError(problem, 2);
  }
  // Every MCP server starts now, before the rest is set up, and boots while we do; a dead one is
  // reported and the session goes on. Servers whose tools the project's last session remembers
  // finish connecting once the first request is on the wire (src/mcp/session-setup.ts).
  // Filled in below: servers may log, sample or ask for roots once connected, before the session exists.
  let sessionRef: ReturnType<typeof createSession> | undefined;
  let reporterRef: HeadlessReporter | undefined;
  const mcpStarting = connectMcpForSession({
    cwd: config.cwd,
    mcpConfig: config.mcpConfig,
    loadedSettings: permissions.settings,
    warn: (message) => err(`warden: ${message}\n`),
    features: headlessMcpFeatures({
      settings: permissions.settings,
      provider: resolved.provider,
      model: resolved.model,
      workingDirectories: () =>
        (sessionRef?.getAppState().toolPermissionContext ?? permissions.permissionContext).workingDirectories,
      recordUsage: (usage) => sessionRef?.ledger.add(modelInfo, usage),
      warn: (message) => err(`warden: ${message}\n`),
      onServerLog: (message) => reporterRef?.serverLog(message),
    }),
    handshakeAfter: firstRequest.sent,
  });
  // Awaited below; until then a failure must not count as unhandled.
  mcpStarting.catch(() => undefined);
  const taskTools = settingsValue(permissions.settings, "taskTools");
  const skills = await setUpSkills(config.cwd, permissions.settings, (message) => err(`warden: warning: ${message}\n`));
  const structured = config.jsonSchema === undefined ? undefined : await structuredOutputFor(config.jsonSchema);
  const lsp = setUpLsp(config.cwd, permissions.settings, (message) => err(`warden: warning: ${message}\n`));
  const tools: AnyTool[] = [
    ...builtInTools({ taskTools, brief: config.brief || settingsValue(permissions.settings, "brief") === true }),
    ...(structured ? [structured.tool] : []),
    ...skills.tools,
    ...lsp.tools,
    ...(await loadExtraTools()),
  ];
  const compactInstructions = manualCompaction(prompt);
  // `-p "/name args"`: a slash command or skill becomes its text (never the built-in /compact).
  const expanded =
    compactInstructions === undefined
      ? await expandPrompt(prompt, skills.catalog, permissions.permissionContext, config.cwd, (message) =>
          err(`warden: warning: ${message}\n`),
        )
      : { ok: true as const, prompt, permissionContext: permissions.permissionContext };
  if (!expanded.ok) throw new CliError(expanded.message, 2);
  const permissionContext = expanded.permissionContext;
  warmUpWhileWaiting(firstRequest, tools);
  const mcp = await mcpStarting;
  const mcpServers = mcp.servers;
  const agentCatalog = await loadSessionAgentCatalog(config.cwd, permissions.settings, (message) =>
    err(`warden: warning: ${message}\n`),
  );

  const session = createSession({
    provider,
    model: resolved.model,
    modelLabel: resolved.label,
    tools,
    mcpTools: mcp.tools,
    appState: resumedAppState(
      {
        ...mcp.initialAppState(resumed?.messages),
        ...(resumed ? restoredTaskListState(resumed.taskList, sessionArtifactsDir(config.cwd, resumed.sessionId)) : {}),
        ...(agentCatalog ? { agentCatalog } : {}),
      },
      resumed?.loadedDeferredTools,
    ),
    canUseTool: buildHeadlessCanUseTool(config),
    cwd: config.cwd,
    sessionId: resumed?.sessionId,
    initialMessages: resumed?.messages,
    maxTurns: config.maxTurns,
    modelInfo: modelOverride,
    maxBudgetUsd: config.maxBudgetUsd,
    appendSystemPrompt: [mcp.systemPromptSection, config.appendSystemPrompt].filter(Boolean).join("\n\n") || undefined,
    permissionContext,
    isNonInteractive: true,
    verbose: config.verbose,
    onAttachmentError: (kind, error) =>
      err(
        `warden: warning: the ${kind} reminder was skipped: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
  });
  sessionRef = session;
  mcp.onToolsChanged((mcpTools, instructions) => {
    session.setMcpTools(mcpTools);
    // Told to the model as a delta (mcp_instructions_delta), never by rewriting the system prompt.
    session.setAppState((state) => ({ ...state, mcpInstructions: instructions }));
  });
  // Durable scheduled tasks of this project come back (only when its file exists: croner loads then).
  if (existsSync(join(config.cwd, ".warden", "scheduled_tasks.json"))) {
    const { armDurableTasks } = await import("../../tools/cron-shared/rearm.js");
    for (const warning of await armDurableTasks(session, config.cwd)) err(`warden: warning: ${warning}\n`);
  }

  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    session.abort("user");
  };
  process.on("SIGINT", onSigint);
  // A closed stdout (EPIPE) would otherwise crash the process with an unhandled error event; the
  // session stops instead, since nobody reads its output any more. The listener stays to the end:
  // a write may fail after the session is over.
  const onOutputError = () => {
    outputClosed = true;
    session.abort("output_closed");
  };
  process.stdout.on("error", onOutputError);
  const reporter = new HeadlessReporter(config.outputFormat, out, err, session.sessionId, config.verbose);
  reporterRef = reporter;
  reporter.init({
    cwd: config.cwd,
    sessionId: session.sessionId,
    model: resolved.label,
    tools: session.tools.map((t) => t.name),
    permissionMode: permissionContext.mode,
    mcpServers,
    workspaceTrust: workspaceTrustLine(permissions.settings.workspaceTrust),
    agents: (agentCatalog ?? builtInCatalog()).agents.map((agent) => agent.agentType),
    agentErrors: agentCatalog?.issues ?? [],
  });

  let terminal: TerminalEvent | undefined;
  let resultText: string | undefined;
  try {
    if (compactInstructions !== undefined) {
      ({ terminal, resultText } = await compactNow(config, session, compactInstructions.trim() || undefined, reporter));
    } else {
      for await (const event of runPromptWithPermissions(config, session, expanded.prompt, resumed !== undefined)) {
        reporter.event(event);
        if (event.type === "terminal") terminal = event;
      }
      // --json-schema: a run that ended without a valid StructuredOutput call is sent back to make it.
      for (let nudges = 0; structured && terminal?.reason === "completed"; nudges++) {
        if (!shouldNudge(session.getAppState(), structured, nudges)) break;
        for await (const event of session.submitMessage(structured.nudge)) {
          reporter.event(event);
          if (event.type === "terminal") terminal = event;
        }
      }
    }
  } finally {
    process.off("SIGINT", onSigint);
    session.close();
    await Promise.all([mcp.close(), lsp.close()]);
  }
  if (!terminal) throw new CliError("the session ended without a result", 1);
  const result = reporter.finish(
    terminal,
    performance.now() - startedAt,
    session.permissionDenials,
    {
      totalCostUsd: session.totalCostUSD,
      modelUsage: session.modelUsage(),
    },
    resultText,
    structured ? { output: structuredOutputOf(session.getAppState()) } : undefined,
  );
  if (interrupted) return 130;
  if (outputClosed) return 141; // 128 + SIGPIPE, as a tool killed by the broken pipe would exit
  return result.is_error ? 1 : 0;
}

async function structuredOutputFor(option: string): Promise<StructuredOutputSetup> {
  try {
    return await setUpStructuredOutput(option);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), 2);
  }
}

/** No -p, but the terminal needed for an interactive session is not there (main.ts starts it when it is). */
function interactiveNeedsTerminal(): number {
  const missing = !stdinIsTerminal() ? "stdin is not a terminal" : "stdout is not a terminal";
  err(
    `${usageText()}\nwarden: the interactive session needs a terminal, but ${missing}; use -p "<prompt>" (or pipe the prompt on stdin) to run headless.\n`,
  );
  return 2;
}

/** Settings `model` (what Config sets): the model when neither --model nor a resumed session names one. */
function settingsModel(config: SessionConfig): string | undefined {
  const value = settingsValue(sessionPermissions(config).settings, "model");
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function chooseDefaultModel(): string {
  const choice = defaultModelSpec();
  if ("error" in choice) throw new CliError(choice.error, 2);
  return choice.spec;
}

/** `/compact [instructions]` as the whole prompt: the instructions ("" for none), else undefined. */
function manualCompaction(prompt: string): string | undefined {
  const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  return match ? (match[1] ?? "") : undefined;
}

/** Runs `/compact` and shapes its outcome like a prompt's, for the result line. */
async function compactNow(
  config: SessionConfig,
  session: ReturnType<typeof createSession>,
  instructions: string | undefined,
  reporter: HeadlessReporter,
): Promise<{ terminal: TerminalEvent; resultText: string }> {
  const steps = runCompactWithPermissions(config, session, instructions);
  let boundary: CompactBoundaryEvent | undefined;
  while (true) {
    const step = await steps.next();
    if (!step.done) {
      reporter.event(step.value);
      if (step.value.type === "compact_boundary") boundary = step.value;
      continue;
    }
    const outcome = step.value;
    if (!outcome.ok || !boundary) {
      return {
        terminal: {
          type: "terminal",
          reason: "model_error",
          turnCount: 0,
          usage: outcome.usage,
          error: outcome.ok ? "no summary" : outcome.reason,
        },
        resultText: "",
      };
    }
    return {
      terminal: { type: "terminal", reason: "completed", turnCount: 0, usage: outcome.usage },
      resultText: `Compacted the conversation: about ${boundary.preTokens} tokens before, ${boundary.postTokens} after.`,
    };
  }
}

/** Tools loaded before a compaction are named by its boundary, not by the (summarised) messages. */
function resumedAppState(
  state: Partial<AppState>,
  loadedBeforeCompaction: readonly string[] | undefined,
): Partial<AppState> {
  if (!loadedBeforeCompaction?.length) return state;
  const loaded = [...(state.loadedDeferredTools ?? [])];
  for (const name of loadedBeforeCompaction) if (!loaded.includes(name)) loaded.push(name);
  return { ...state, loadedDeferredTools: loaded };
}

async function loadResumed(config: SessionConfig): Promise<
  | {
      sessionId: string;
      messages: Message[];
      model?: string;
      taskList?: TaskListSnapshot;
      loadedDeferredTools?: string[];
    }
  | undefined
> {
  if (config.resume === undefined && !config.continueLatest) return undefined;
  const { latestSessionId, loadSession } = await import("../../session/transcript-reader.js");
  const sessionId = config.resume ?? latestSessionId(config.cwd);
  if (sessionId === undefined) throw new CliError(`no earlier session in ${config.cwd} to continue`, 1);
  try {
    const loaded = loadSession(config.cwd, sessionId);
    for (const warning of loaded.warnings) err(`warden: warning: ${warning}\n`);
    return loaded;
  } catch (error) {
    throw new CliError(
      `cannot resume session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`,
      1,
    );
  }
}
