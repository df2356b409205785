// `warden -p --input-format stream-json --output-format stream-json`: Warden as the Agent SDK's
// executable. User messages arrive as NDJSON on stdin, each run as one prompt of the same session
// (stdin stays open between them; the session ends when it closes). The SDK's control requests
// come in between (initialize first, then interrupt, set_permission_mode, set_model, the MCP
// requests, seed_read_state, apply_flag_settings), and ours go out (can_use_tool, hook_callback, mcp_message, elicitation). Loaded only when
// --input-format stream-json is used.

import type { Readable } from "node:stream";
import { sessionArtifactsDir } from "../../config/paths.js";
import { isDirectory } from "../../fs/path-kind.js";
import { HookRunner } from "../../hooks/hook-runner.js";
import type { TerminalEvent } from "../../loop/events.js";
import { PromptBlockedError } from "../../loop/session-hooks.js";
import type { UserContentBlock } from "../../messages/types.js";
import type { SessionConfig } from "../flags/session-config.js";
import { reportHookLines } from "../headless/hook-lines.js";
import { HeadlessReporter, type ResultObject } from "../headless/output.js";
import { reportSetupFailure } from "../headless/setup-failure.js";
import { structuredOutputOf, withStructuredOutput } from "../headless/structured-output.js";
import { reportTaskLines } from "../headless/task-lines.js";
import { initInfoOf } from "../session/init-info.js";
import { headlessAskHandler } from "../session/permission-prompt-tool.js";
import { planSession } from "../session/plan.js";
import { SessionSetupError } from "../session/setup-error.js";
import { startSession } from "../session/start.js";
import { ControlChannel, type JsonObject, type UserMessageLine } from "./channel.js";
import { sdkElicitationHandler } from "./elicitation-bridge.js";
import { agentsRunning, nextWakeOrTaskEnd } from "./idle-wake.js";
import { sdkAskHandler } from "./permission-bridge.js";
import { handleControlRequest, initializeResponse } from "./requests.js";
import { callbackHooksFrom, hookCallbackRunner } from "./sdk-hooks.js";
import { connectSdkMcpServers } from "./sdk-mcp.js";
import type { StreamState } from "./stream-state.js";

/**
 * Where the stream session reads and writes: the process's stdin, stdout and stderr for the CLI;
 * in-memory streams for the library's query(), which speaks the same protocol in one process.
 */
export interface StreamIo {
  input: Readable;
  output: (text: string) => void;
  err: (text: string) => void;
  /** The CLI owns the process: Ctrl+C interrupts, a closed stdout stops the session. */
  ownsProcess: boolean;
}

const processIo = (): StreamIo => ({
  input: process.stdin,
  output: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  ownsProcess: true,
});

export async function runStreamSession(config: SessionConfig, io: StreamIo = processIo()): Promise<number> {
  let outputClosed = false;
  const out = (text: string) => {
    if (!outputClosed) io.output(text);
  };
  const write = (line: JsonObject) => out(`${JSON.stringify(line)}\n`);
  const err = io.err;
  const warn = (message: string) => err(`warden: warning: ${message}\n`);
  const channel = new ControlChannel({
    input: io.input,
    write,
    warn,
    ...(config.debug && { debug: (message: string) => err(`warden [debug] ${message}\n`) }),
  });
  const queue: UserMessageLine[] = [];
  let wake: (() => void) | undefined;
  channel.onUserMessage((message) => {
    queue.push(message);
    wake?.();
  });

  const cancelQueued = (uuid: string): boolean => {
    const index = queue.findIndex((message) => message.uuid === uuid);
    if (index < 0) return false;
    queue.splice(index, 1);
    return true;
  };

  let initialize: JsonObject | undefined;
  let building: Promise<StreamState> | undefined;
  let reporterRef: HeadlessReporter | undefined;
  const build = (): Promise<StreamState> => {
    building ??= buildState(config, initialize, channel, warn, err, out, cancelQueued, (reporter) => {
      reporterRef = reporter;
    });
    return building;
  };
  channel.onControlRequest(async (request) => {
    if (request.subtype === "initialize") {
      if (building) throw new Error("initialize must be the first request, and comes once");
      initialize = request;
      return initializeResponse(await build());
    }
    return handleControlRequest(request, await build());
  });

  let state: StreamState;
  let lastResult: ResultObject | undefined;
  let first = true;
  let interrupted = false;
  // Ctrl+C or a closed output also ends an idle wait (for a prompt, or for background agents after
  // stdin closed): otherwise the first Ctrl+C would abort an idle session and keep waiting.
  let stopWaiting: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stopWaiting = resolve));
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    stopWaiting();
    void building?.then(({ built }) => built.commands.interrupt("user"));
  };
  if (io.ownsProcess) {
    process.on("SIGINT", onSigint);
    process.stdout.on("error", () => {
      outputClosed = true;
      stopWaiting();
      void building?.then(({ built }) => built.commands.interrupt("output_closed"));
    });
  }
  try {
    while (true) {
      let message: UserMessageLine | undefined;
      if (queue.length === 0) {
        // Idle: a turn of the session's own when something arrived for the model (idle-wake.ts).
        const idle = building ? await building.catch(() => undefined) : undefined;
        if (!idle?.built.session.wakeDue) {
          const waitForAgents = idle !== undefined && agentsRunning(idle);
          if (channel.inputEnded && !waitForAgents) break;
          const next = idle ? nextWakeOrTaskEnd(idle) : undefined;
          const inputs = channel.inputEnded ? [] : [new Promise<void>((resolve) => (wake = resolve)), channel.closed];
          await Promise.race([...inputs, ...(next ? [next.arrived] : []), stopped]);
          next?.stop();
          if (interrupted || outputClosed) break;
          continue;
        }
      } else message = queue.shift() as UserMessageLine;
      try {
        state = await build();
      } catch (error) {
        return setupFailed(error, config, out, err);
      }
      if (first) await state.built.runStartHooks();
      lastResult = await runTurn(state, message, config, first, write);
      first = false;
      if (interrupted || outputClosed) break;
    }
    // stdin closed with no prompt: a session that was initialized still ends cleanly.
    if (building) {
      try {
        state = await building;
      } catch (error) {
        return setupFailed(error, config, out, err);
      }
    }
  } finally {
    if (io.ownsProcess) process.off("SIGINT", onSigint);
    if (building) {
      await building.then(
        async (state) => {
          await state.built.session.getAppState().backgroundTasks?.stopAll();
          await state.built.close();
          await Promise.all(state.sdkServers.map((server) => server.close()));
        },
        () => undefined,
      );
    }
  }
  void reporterRef;
  if (interrupted) return 130;
  if (outputClosed) return 141;
  return lastResult?.is_error ? 1 : 0;
}

/** The session could not be built: said on stderr and, for the SDK reading stdout, as a result line. */
function setupFailed(
  error: unknown,
  config: SessionConfig,
  out: (text: string) => void,
  err: (text: string) => void,
): number {
  const message = error instanceof Error ? error.message : String(error);
  return reportSetupFailure({
    message,
    // A bad flag or value is usage (2); settings that cannot be read and the rest, set-up (1).
    exitCode: error instanceof SessionSetupError ? error.exitCode : 1,
    format: "stream-json",
    ...(config.sessionId !== undefined && { sessionId: config.sessionId }),
    out,
    err,
  });
}

async function buildState(
  given: SessionConfig,
  initialize: JsonObject | undefined,
  channel: ControlChannel,
  warn: (message: string) => void,
  err: (text: string) => void,
  out: (text: string) => void,
  cancelQueued: (uuid: string) => boolean,
  onReporter: (reporter: HeadlessReporter) => void,
): Promise<StreamState> {
  // The SDK's outputFormat comes in initialize (jsonSchema); --json-schema works as with -p.
  const config: SessionConfig =
    initialize?.jsonSchema !== undefined && given.jsonSchema === undefined
      ? { ...given, jsonSchema: JSON.stringify(initialize.jsonSchema) }
      : given;
  // The CLI checks --cwd before it gets here; the library's query() comes straight in, and a
  // session in a folder that is not there would answer "success" with every tool failing.
  if (!isDirectory(config.cwd))
    throw new SessionSetupError(`cwd ${config.cwd} does not exist or is not a directory`, 2);
  let reporter: HeadlessReporter | undefined;
  const plan = await planSession(config, {
    ownsProcess: true,
    resume: config.resume,
    continueLatest: config.continueLatest,
    warn,
    onRetry: (info) => reporter?.apiRetry({ ...info, status: info.error.status, error: info.error.message }),
  });
  const hooks = callbackHooksFrom(initialize?.hooks);
  if (hooks) {
    const permissions = plan.permissions;
    if (!permissions.hooks) {
      permissions.hooks = new HookRunner({ config: {}, cwd: config.cwd, sessionId: "" });
      permissions.appState.hooks = permissions.hooks;
      permissions.appState.compactHooks = permissions.hooks;
    }
    permissions.hooks.addCallbacks(hooks, hookCallbackRunner(channel));
  }
  const sdkServerNames = Array.isArray(initialize?.sdkMcpServers) ? initialize.sdkMcpServers.map(String) : [];
  const sdkServers = sdkServerNames.length > 0 ? await connectSdkMcpServers(channel, sdkServerNames) : [];
  for (const server of sdkServers) {
    if (server.status === "failed") err(`warden: SDK MCP server "${server.name}" failed: ${server.error}\n`);
  }
  const built = await startSession(plan, {
    askHandler:
      config.permissionPromptTool === "stdio"
        ? sdkAskHandler(channel)
        : headlessAskHandler(
            config.permissionPromptTool,
            {
              settingsFolder: plan.permissions.settings.workspaceTrust.folder,
              withheldFiles: plan.permissions.settings.withheldFiles,
            },
            warn,
          ),
    isNonInteractive: true,
    warn,
    mcpWarn: (message) => err(`warden: ${message}\n`),
    onServerLog: (message) => reporter?.serverLog(message),
    // Servers' questions go to the SDK (its onElicitation answers, or it declines).
    onElicitation: sdkElicitationHandler(channel, warn),
    onElicitationComplete: (server, elicitationId) =>
      reporter?.system({ subtype: "elicitation_complete", mcp_server_name: server, elicitation_id: elicitationId }),
    armDurableTasks: true,
    extraMcpTools: sdkServers.flatMap((server) => server.tools),
    ...(Array.isArray(initialize?.systemPrompt) && { systemPrompt: initialize.systemPrompt.map(String).join("\n\n") }),
    ...(typeof initialize?.appendSystemPrompt === "string" && { appendSystemPrompt: initialize.appendSystemPrompt }),
    ...(isObject(initialize?.agents) && { agents: initialize.agents }),
  });
  reporter = new HeadlessReporter("stream-json", out, err, built.session.sessionId, config.verbose);
  if (config.includePartialMessages) reporter.includePartialMessages();
  const hookLines = reporter;
  if (config.includeHookEvents) reportHookLines(built.plan.permissions.hooks, (fields) => hookLines.system(fields));
  const taskLines = reporter;
  reportTaskLines(built.session, (fields) => taskLines.system(fields));
  // A foreground subagent's messages are streamed; a question about any call waits for its message.
  const messageLines = reporter;
  built.session.observeSubagents((parentToolUseId, event) => messageLines.subagentEvent(parentToolUseId, event));
  channel.orderToolRequests((toolUseId, signal) => messageLines.callOrder.whenShown(toolUseId, signal));
  onReporter(reporter);
  // The Agent SDK asks for checkpoints through its environment (enableFileCheckpointing).
  const checkpointing =
    config.enableFileCheckpointing || process.env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING === "true";
  const checkpoints = checkpointing
    ? new (await import("./file-checkpoints.js")).FileCheckpoints(() =>
        sessionArtifactsDir(config.cwd, built.session.sessionId),
      )
    : undefined;
  return {
    built,
    reporter,
    sdkServers,
    channel,
    interruptRequested: false,
    warn,
    cancelQueued,
    totals: { startedAt: performance.now(), apiMs: 0 },
    ...(checkpoints && { checkpoints }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One user message of the stream, or a turn the idle session took by itself, run to its result line. */
async function runTurn(
  state: StreamState,
  message: UserMessageLine | undefined,
  config: SessionConfig,
  first: boolean,
  write: (line: JsonObject) => void,
): Promise<ResultObject> {
  const { built, reporter, sdkServers } = state;
  const { session } = built;
  const startedAt = performance.now();
  // The message's id: rewind_files names the point to go back to by it.
  const uuid = typeof message?.uuid === "string" ? message.uuid : crypto.randomUUID();
  state.checkpoints?.mark(uuid);
  if (config.replayUserMessages && message) write({ ...message, session_id: session.sessionId, uuid });
  reporter.startTurn();
  state.interruptRequested = false;
  if (first || config.verbose) {
    reporter.init(
      initInfoOf(
        built,
        sdkServers.map((server) => ({ name: server.name, status: server.status })),
      ),
    );
  }
  reporter.system({ subtype: "session_state_changed", state: "running" });
  let terminal: TerminalEvent | undefined;
  // No message: what waits for the model (task notices, scheduled prompts) makes the turn.
  const content = message ? promptOf(message.message?.content) : undefined;
  try {
    const prompt = typeof content === "object" ? session.submitMessage(content) : built.runPrompt(content);
    // --json-schema: sent back to call StructuredOutput, within what --max-turns leaves.
    const events = withStructuredOutput(prompt, session, built.plan.structured, config.maxTurns);
    for await (const event of events) {
      if (state.interruptRequested && session.isRunning) {
        state.interruptRequested = false;
        built.commands.interrupt("user");
      }
      reporter.event(event);
      if (event.type === "terminal") terminal = event;
    }
  } catch (error) {
    if (!(error instanceof PromptBlockedError)) throw error;
    terminal = {
      type: "terminal",
      reason: "model_error",
      turnCount: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      error: error.message,
    };
  }
  const result = reporter.finish(
    terminal ?? {
      type: "terminal",
      reason: "model_error",
      turnCount: 0,
      usage: { input_tokens: 0, output_tokens: 0 },
      error: "the prompt ended without a result",
    },
    performance.now() - startedAt,
    session.permissionDenials,
    { totalCostUsd: session.totalCostUSD, modelUsage: session.modelUsage() },
    undefined,
    built.plan.structured ? { output: structuredOutputOf(session.getAppState()) } : undefined,
  );
  state.totals.apiMs += result.duration_api_ms;
  // The SDK's sign that the turn is over: a query with a single prompt closes stdin on it.
  reporter.system({ subtype: "session_state_changed", state: "idle" });
  return result;
}

/** A user message's content: text as a string (run with the prompt hooks), other blocks as they are. */
function promptOf(content: unknown): string | UserContentBlock[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const blocks = content as Array<{ type?: string; text?: string }>;
  if (blocks.every((block) => block?.type === "text")) return blocks.map((block) => block.text ?? "").join("\n\n");
  return content as UserContentBlock[];
}
