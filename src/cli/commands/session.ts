// `warden -p "<prompt>"`: one headless session. Exit codes: 0 success, 1 the session ended in
// error (turn limit, model failure, ...), 2 bad usage, 130 interrupted (Ctrl+C).
// Static on purpose: a headless run needs all of these before its first request, and each
// dynamic import() is one more module file for the loader to fetch and link at start-up.

import { SettingsError } from "../../config/settings.js";
import { INIT_PROMPT } from "../../config/skills/built-in-commands.js";
import { isDirectory } from "../../fs/path-kind.js";
import type { CompactBoundaryEvent, TerminalEvent } from "../../loop/events.js";
import { PromptBlockedError } from "../../loop/session-hooks.js";
import {
  listTookLastWord,
  parseSessionArgs,
  type SessionConfig,
  UsageError,
  usageText,
} from "../flags/session-config.js";
import { reportHookLines } from "../headless/hook-lines.js";
import { HeadlessReporter } from "../headless/output.js";
import { readPrompt, readStdin, stdinIsTerminal } from "../headless/prompt-input.js";
import { reportSetupFailure, requestedFormat, requestedSessionId, SEE_HELP } from "../headless/setup-failure.js";
import { structuredOutputOf, withStructuredOutput } from "../headless/structured-output.js";
import { reportTaskLines } from "../headless/task-lines.js";
import { initInfoOf } from "../session/init-info.js";
import { headlessAskHandler } from "../session/permission-prompt-tool.js";
import { planSession } from "../session/plan.js";
import { SessionSetupError } from "../session/setup-error.js";
import { type ExpandedPrompt, expandPrompt, withHookContext } from "../session/skills-setup.js";
import { type BuiltSession, startSession } from "../session/start.js";
import { monotonicMs } from "../startup/monotonic.js";
import { wardenVersion } from "../version.js";

// Set when whoever reads our output has gone (`warden -p ... | head -1`): nothing more is written.
let outputClosed = false;
const out = (text: string) => {
  if (!outputClosed) process.stdout.write(text);
};
const err = (text: string) => void process.stderr.write(text);

/**
 * `given.stdin`: what stands for stdin's text, for a warm fleet process whose stdin brought the
 * job (./fleet-session.ts).
 */
export async function run(argv: string[], given: { stdin?: string } = {}): Promise<number> {
  const startedAt = monotonicMs();
  let config: SessionConfig;
  try {
    config = carriesSessionSpec(argv) ? await sessionOfSpec(argv, given.stdin) : parseSessionArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return reportSetupFailure({
      message: error.message,
      exitCode: 2,
      format: requestedFormat(argv),
      ...optional("sessionId", requestedSessionId(argv)),
      out,
      err,
    });
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
    if (config.setup === "init-only") {
      const { runSetupOnly } = await import("../session/setup-only.js");
      return await runSetupOnly(config, { out, err });
    }
    if (config.inputFormat === "stream-json") {
      if (!isDirectory(config.cwd)) throw new SessionSetupError(`--cwd ${config.cwd} is not a directory`, 2);
      // The Agent SDK's protocol, loaded only for it: a plain -p run does not pay for it.
      const { runStreamSession } = await import("../control-protocol/stream-session.js");
      return await runStreamSession(config);
    }
    return await runHeadless(config, startedAt, argv);
  } catch (error) {
    // Settings files that cannot be read are the set-up's failure (exit 1); a bad --settings value
    // was already made a usage error (exit 2) by planSession.
    if (!(error instanceof SessionSetupError) && !(error instanceof SettingsError)) throw error;
    return reportSetupFailure({
      message: error.message,
      exitCode: error instanceof SessionSetupError ? error.exitCode : 1,
      ...(error instanceof SessionSetupError ? { kind: error.kind } : {}),
      format: config.outputFormat,
      ...optional("sessionId", config.sessionId),
      out,
      err,
    });
  }
}

/** `--session-spec FILE|-` (a fleet job, ../session/spec-wire.ts): the session given whole. */
function carriesSessionSpec(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === "--session-spec" || arg.startsWith("--session-spec="));
}

/** Loaded only for a spec: the schema it is read with is not paid for by a plain -p run. */
async function sessionOfSpec(argv: readonly string[], stdin: string | undefined): Promise<SessionConfig> {
  const { sessionSpecOfArgs } = await import("../session/spec-wire.js");
  return (await sessionSpecOfArgs(argv, async () => stdin ?? readStdin())) as SessionConfig;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

async function runHeadless(config: SessionConfig, startedAt: number, argv: readonly string[]): Promise<number> {
  if (!isDirectory(config.cwd)) throw new SessionSetupError(`--cwd ${config.cwd} is not a directory`, 2);
  if (!config.print && stdinIsTerminal()) return interactiveNeedsTerminal();
  // Only a person at the interactive UI can pick a session.
  if (config.pickResume) throw new SessionSetupError("--resume needs a session id when not in a terminal", 2);
  const prompt = await readPrompt(config.prompt);
  if (prompt === undefined || prompt.trim() === "") {
    if (!config.print) return interactiveNeedsTerminal();
    const took = listTookLastWord(argv);
    const hint = took
      ? ` (${took.option} took every word after it, ${JSON.stringify(took.word)} too: put the prompt before it, or after --)`
      : "";
    throw new SessionSetupError(`no prompt: pass it after -p ("warden -p \\"...\\"") or on stdin${hint}`, 2);
  }

  const warn = (message: string) => err(`warden: warning: ${message}\n`);
  // Everything that can be checked (model, settings, budget, --json-schema) is, before anything starts.
  let reporterRef: HeadlessReporter | undefined;
  const plan = await planSession(config, {
    ownsProcess: true,
    resume: config.resume,
    continueLatest: config.continueLatest,
    warn,
    onRetry: (info) => reporterRef?.apiRetry({ ...info, status: info.error.status, error: info.error.message }),
  });
  const structured = plan.structured;
  const compactInstructions = manualCompaction(prompt);
  let expandedPrompt = prompt;
  // A command's or skill's text: its `!`command`` marks run once the session exists (below).
  let runsShell = false;
  /** The expansion of a `/name args` prompt, for the UserPromptExpansion hooks' context. */
  let expandedWith: ExpandedPrompt | undefined;
  // Every MCP server starts now and boots while the rest is set up; a dead one is reported and the
  // session goes on. Servers whose tools the project's last session remembers finish connecting
  // once the first request is on the wire (src/mcp/session-setup.ts).
  const built = await startSession(plan, {
    askHandler: headlessAskHandler(
      config.permissionPromptTool,
      {
        settingsFolder: plan.permissions.settings.workspaceTrust.folder,
        withheldFiles: plan.permissions.settings.withheldFiles,
      },
      warn,
    ),
    isNonInteractive: true,
    // One prompt, then the process ends: a schedule for this session would never fire.
    endsWithPrompt: true,
    warn,
    mcpWarn: (message) => err(`warden: ${message}\n`),
    onServerLog: (message) => reporterRef?.serverLog(message),
    deferMcpHandshake: true,
    armDurableTasks: true,
    // `-p "/name args"`: a slash command or skill becomes its text (never a built-in: /compact, /init).
    beforeCreate: async ({ skills, permissionContext, hooks }) => {
      if (compactInstructions !== undefined) return permissionContext;
      // `/init` is the built-in's, whatever the folders hold (config/skills/built-in-commands.ts).
      if (/^\/init(?:\s|$)/i.test(prompt.trim())) {
        const args = prompt.trim().slice("/init".length).trim();
        expandedPrompt = args ? `${INIT_PROMPT}\n\n${args}` : INIT_PROMPT;
        return permissionContext;
      }
      const expanded = await expandPrompt(prompt, skills.catalog, permissionContext, config.cwd, warn, hooks);
      // Refused, not misused: no option would change it, so no pointer to --help.
      if (!expanded.ok) throw new SessionSetupError(expanded.message, 1, "blocked");
      expandedPrompt = expanded.prompt;
      expandedWith = expanded;
      runsShell = expanded.fromFile === true;
      return expanded.permissionContext;
    },
  });
  const { session } = built;

  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    built.commands.interrupt("user");
  };
  process.on("SIGINT", onSigint);
  // A closed stdout (EPIPE) would otherwise crash the process with an unhandled error event; the
  // session stops instead, since nobody reads its output any more. The listener stays to the end:
  // a write may fail after the session is over.
  const onOutputError = () => {
    outputClosed = true;
    built.commands.interrupt("output_closed");
  };
  process.stdout.on("error", onOutputError);
  const reporter = new HeadlessReporter(config.outputFormat, out, err, session.sessionId, config.verbose);
  reporterRef = reporter;
  reporter.init(initInfoOf(built));
  if (config.includePartialMessages) reporter.includePartialMessages();
  if (reporter.streamsMessages) {
    reportTaskLines(session, (fields) => reporter.system(fields));
    // Before the SessionStart hooks run (runStartHooks below), so their lines are reported too.
    if (config.includeHookEvents) reportHookLines(built.plan.permissions.hooks, (fields) => reporter.system(fields));
    session.observeSubagents((parentToolUseId, event) => reporter.subagentEvent(parentToolUseId, event));
  }

  let terminal: TerminalEvent | undefined;
  let resultText: string | undefined;
  let unfinishedSignIns: string[] = [];
  try {
    // Every run starts (or resumes) its session, `-p "/compact"` too: SessionStart hooks first.
    await built.runStartHooks();
    if (compactInstructions !== undefined) {
      ({ terminal, resultText } = await compactNow(built, compactInstructions.trim() || undefined, reporter));
    } else {
      if (runsShell) {
        // SIGINT (the session's interrupt) stops the mark running and the prompt is not sent.
        const { runPromptMarks, shellInterruptedNotice } = await import("../../tools/skill/shell-marks.js");
        const run = await runPromptMarks(expandedPrompt, session, built.canUseTool, prompt);
        if (run.interrupted) throw new SessionSetupError(shellInterruptedNotice(prompt), 130);
        expandedPrompt = run.text;
      }
      if (expandedWith) expandedPrompt = withHookContext(expandedPrompt, expandedWith);
      // A command's `model` answers its run, as in Claude Code (one that cannot be used is said).
      const commandModel = expandedWith?.ok ? expandedWith.model : undefined;
      if (commandModel !== undefined) {
        await built.commands
          .setModel(commandModel, "command")
          .catch((error: unknown) =>
            warn(
              `the model ${JSON.stringify(commandModel)} the command asks for is not used: ${(error as Error).message}`,
            ),
          );
      }
      // --json-schema: a run that ended without a valid StructuredOutput call is sent back to make it.
      const run = withStructuredOutput(built.runPrompt(expandedPrompt), session, structured, config.maxTurns);
      // Text output is for a person to read: MessageDisplay hooks may change what it shows (their
      // code loads only when there are some: a plain run does not pay for it at start-up).
      const displayHooks = config.outputFormat === "text" ? built.plan.permissions.hooks : undefined;
      const shown = displayHooks?.has("MessageDisplay")
        ? (await import("../../loop/message-display.js")).displayedThroughHooks(run, displayHooks, warn)
        : run;
      for await (const event of shown) {
        reporter.event(event);
        if (event.type === "terminal") terminal = event;
      }
    }
  } catch (error) {
    // A UserPromptSubmit hook refused the prompt: nothing reached the model. Said like a run that
    // could not start (one line, a result line for JSON readers), without a pointer to --help.
    if (error instanceof PromptBlockedError) throw new SessionSetupError(error.message, 1, "blocked");
    throw error;
  } finally {
    process.off("SIGINT", onSigint);
    // A sign-in page still open cannot be finished now: closing gives it up, and the result says so.
    unfinishedSignIns = built.mcp.openSignIns();
    await built.close();
  }
  if (!terminal) throw new SessionSetupError("the session ended without a result", 1);
  const result = reporter.finish(
    terminal,
    monotonicMs() - startedAt,
    session.permissionDenials,
    {
      totalCostUsd: session.totalCostUSD,
      modelUsage: session.modelUsage(),
    },
    resultText,
    structured ? { output: structuredOutputOf(session.getAppState()) } : undefined,
    unfinishedSignIns.map(
      (name) =>
        `sign-in to the MCP server "${name}" was not completed: the run ended first; sign in with \`warden mcp login ${name}\``,
    ),
  );
  if (interrupted) return 130;
  if (outputClosed) return 141; // 128 + SIGPIPE, as a tool killed by the broken pipe would exit
  return result.is_error ? 1 : 0;
}

/** No -p, but the terminal needed for an interactive session is not there (main.ts starts it when it is). */
function interactiveNeedsTerminal(): number {
  const missing = !stdinIsTerminal() ? "stdin is not a terminal" : "stdout is not a terminal";
  err(
    `warden: the interactive session needs a terminal, but ${missing}; use -p "<prompt>" (or pipe the prompt on stdin) to run headless.\n${SEE_HELP}\n`,
  );
  return 2;
}

/** `/compact [instructions]` as the whole prompt: the instructions ("" for none), else undefined. */
function manualCompaction(prompt: string): string | undefined {
  const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  return match ? (match[1] ?? "") : undefined;
}

/** Runs `/compact` and shapes its outcome like a prompt's, for the result line. */
async function compactNow(
  built: BuiltSession,
  instructions: string | undefined,
  reporter: HeadlessReporter,
): Promise<{ terminal: TerminalEvent; resultText: string }> {
  const steps = built.compact(instructions);
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
