// The Bash tool. A call runs validateInput (empty command, timeout above the maximum, a leading
// long sleep), then checkPermissions (the shell analysis at the shell's current directory, and
// "ask" when the sandbox is on but cannot run), then call(): in the background as a task, or in
// the foreground with timeout, abort and progress, followed by the post-processing the model
// reads (exit-code meaning, cwd carried over or reset, sandbox and git-lock notes).
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { isDirectory } from "../../fs/path-kind.js";
import {
  checkBashCommandPermissionLazily,
  isBashAnalysisLoaded,
  isReadOnlyCommandIfLoaded,
} from "../../permissions/bash/lazy-analysis.js";
import type { CommandFacts } from "../../shell/analysis/index.js";
import { type CommandOutcome, interpretCommandResult } from "../../shell/exit-code/index.js";
import { resolveSandboxSettings, sandboxFailureNote } from "../../shell/sandbox/index.js";
import { backgroundTasks, pushReminder } from "../../tasks/registry.js";
import { buildTool } from "../../tool/build-tool.js";
import type { EditorTerminals } from "../../tool/editor.js";
import type { PermissionResult } from "../../tool/permission-types.js";
import { prebuiltInputSchema } from "../../tool/schema.js";
import type { CallScope, ToolUseContext } from "../../tool/types.js";
import { bashAnalysisOf, commandFactsOf, inPlaceSedCommandOf } from "./command-facts.js";
import { needsCwdCapture } from "./cwd-capture.js";
import { runCwdChangedHooks } from "./cwd-changed.js";
import { resolveNewCwd } from "./cwd-policy.js";
import { runInEditorTerminal } from "./editor-terminal.js";
import { foregroundCommands, takeBackgroundWhenStarted } from "./foreground-commands.js";
import { describeGitChanges, readGitState, tracksGitOperation } from "./git-tracking.js";
import { extractHints, hintNotes } from "./hints.js";
import { detectImageOutput, imageOutputForModel } from "./image-output.js";
import { launchShell, withoutInlinePrefix } from "./launch.js";
import { blockingBudgetMs, runsLongRunningProgram } from "./long-running.js";
import { OutputCapture } from "./output-capture.js";
import { BASH_TOOL_NAME, bashPrompt } from "./prompt.js";
import { type BashOutput, bashToolResult, gitIndexLockNote } from "./result-text.js";
import { type BashProgress, type ForegroundResult, runForeground } from "./run-foreground.js";
import { chooseSandbox, type SandboxChoice, sandboxPermission } from "./sandbox-choice.js";
import { sandboxNetworkFor } from "./sandbox-network.js";
import type { SimulatedSedEdit } from "./sed-edit/simulated-edit.js";
import { currentShellCwd, sessionTempDir, setShellCwd, shellSnapshot } from "./shell-session.js";
import { shellExitStatus } from "./signal-exit.js";
import { blockedSleepMessage, detectBlockedSleep } from "./sleep-guard.js";
import { defaultTimeoutMs, maxTimeoutMs } from "./timeouts.js";
import { bashWhenReady } from "./when-ready.js";

export const BASH_MAX_RESULT_SIZE_CHARS = 30_000;

const inputSchema = prebuiltInputSchema(BASH_TOOL_NAME, () =>
  z.strictObject({
    command: z.string().describe("The command to execute"),
    timeout: z
      .number()
      .positive()
      .optional()
      .describe(`Optional timeout in milliseconds (max ${maxTimeoutMs()}; default ${defaultTimeoutMs()})`),
    description: z
      .string()
      .optional()
      .describe("What this command does in 5-10 words, active voice (e.g. 'Run the unit tests')"),
    run_in_background: z
      .boolean()
      .optional()
      .describe(
        "Run the command in the background and return a task id at once; read its output later with TaskOutput",
      ),
    dangerouslyDisableSandbox: z
      .boolean()
      .optional()
      .describe("Run outside the sandbox. Only after a command failed because of the sandbox; the user is asked"),
  }),
);

export type BashInput = z.infer<typeof inputSchema>;

/**
 * Scheduling and plan mode ask this synchronously; the caller's scope says which session's
 * directory to judge against (without one, the process's stands in). Before the bash grammar has
 * loaded every command counts as writing (fail closed); the executor awaits whenReady first, so
 * scheduling never sees that placeholder. The answer is a full parse of the command, asked several
 * times per call: once the grammar has loaded it is kept on the call's memo, keyed by the text and
 * the directory, so the call's later askers reuse it. The placeholder is never kept: it must not
 * outlive the loading. Nothing is kept beyond the call, so no session sees another's answers.
 */
function isReadOnly(input: BashInput, scope?: CallScope): boolean {
  try {
    const judge = () => isReadOnlyCommandIfLoaded(input.command, scope?.cwd);
    if (!scope?.memo || !isBashAnalysisLoaded()) return judge();
    return scope.memo.once(`bash.read-only\0${scope.cwd ?? ""}\0${input.command}`, judge);
  } catch {
    return false;
  }
}

/**
 * A `cd` is read-only but moves the shell for the calls after it, so such a call must not run
 * beside them. Matched on the raw text: a false positive (`echo cd`) only costs concurrency.
 */
function mayChangeDirectory(command: string): boolean {
  return /(^|[\s;&|(`{])(cd|pushd|popd)(?=$|[\s;&|)`}])/.test(command);
}

function startInBackground(input: BashInput, context: ToolUseContext, cwd: string, choice: SandboxChoice): BashOutput {
  const snapshot = shellSnapshot(context);
  const registry = backgroundTasks(context);
  const task = registry.start({
    command: input.command,
    description: input.description,
    toolUseId: context.toolUseId,
    sandboxed: choice.sandbox !== undefined,
    launch: (fd) => launchShell({ command: input.command, cwd, snapshot, output: fd, sandbox: choice.sandbox }),
    notify: (text) => pushReminder(context, text),
  });
  return backgroundedOutput(input, cwd, choice, task);
}

/** What a call returns for a command that runs on as a background task. */
function backgroundedOutput(
  input: BashInput,
  cwd: string,
  choice: SandboxChoice,
  task: { id: string; outputPath: string },
): BashOutput {
  return {
    command: input.command,
    output: "",
    exitCode: null,
    isError: false,
    timedOut: false,
    interrupted: false,
    cwd,
    notes: choice.note ? [choice.note] : [],
    sandboxed: choice.sandbox !== undefined,
    backgroundTaskId: task.id,
    backgroundOutputPath: task.outputPath,
  };
}

/** The directory the shell's EXIT trap wrote, and the file gone. */
function takeReportedCwd(cwdFile: string): string | undefined {
  let reported: string | undefined;
  try {
    reported = readFileSync(cwdFile, "utf8").trim() || undefined;
  } catch {
    // The command replaced the shell (exec) or was killed: the directory stays as it was.
  }
  rmSync(cwdFile, { force: true });
  return reported;
}

async function runInForeground(
  input: BashInput,
  context: ToolUseContext,
  cwd: string,
  choice: SandboxChoice,
  facts: CommandFacts | undefined,
  onProgress?: (progress: BashProgress) => void,
): Promise<BashOutput> {
  const snapshot = shellSnapshot(context);
  const cwdFile = needsCwdCapture(input.command, snapshot)
    ? join(sessionTempDir(context), `cwd-${randomUUID()}`)
    : undefined;
  const timeoutMs = input.timeout ?? defaultTimeoutMs();
  const capture = new OutputCapture({ spillDir: join(context.options.sessionDir, "tool-results") });
  const terminals = editorTerminalsFor(context, choice);
  if (terminals) {
    const run = await runInEditorTerminal({
      terminals,
      command: input.command,
      cwd,
      cwdFile,
      snapshot,
      timeoutMs,
      signal: context.abortController.signal,
      capture,
      ...(context.toolUseId && { toolCall: { id: context.toolUseId, name: BASH_TOOL_NAME, input } }),
    });
    const output = foregroundOutput(input, context, cwd, choice, cwdFile, run);
    await runCwdChangedHooks(context, cwd);
    return output;
  }
  const child = launchShell({
    command: input.command,
    cwd,
    snapshot,
    cwdFile,
    inline: true,
    output: "pipe",
    sandbox: choice.sandbox,
  });
  const run = await runForeground({
    child,
    capture,
    timeoutMs,
    signal: context.abortController.signal,
    onProgress,
    backgroundOnTimeout: facts !== undefined && runsLongRunningProgram(facts.programs),
    backgroundAfterMs: blockingBudgetMs(),
    registerMove: (move) => {
      const unregister = foregroundCommands(context).register(move);
      // Sent to the background while its checks ran: moved once the registration is done.
      if (takeBackgroundWhenStarted(context)) queueMicrotask(move);
      return unregister;
    },
  });
  if (run.movedToBackground) {
    // The person sent it to the background (Ctrl+B), or it outlived its time and typically runs
    // long: it runs on as a task, as if started with run_in_background, and this call ends now
    // with the task's id.
    if (cwdFile) rmSync(cwdFile, { force: true });
    const task = backgroundTasks(context).adopt({
      command: input.command,
      description: input.description,
      toolUseId: context.toolUseId,
      sandboxed: choice.sandbox !== undefined,
      child,
      outputSoFar: run.output.text,
      notify: (text) => pushReminder(context, text),
    });
    return {
      ...backgroundedOutput(input, cwd, choice, task),
      movedToBackground: run.backgroundedOnTimeout ? "timeout" : "user",
      // The limit that moved it: the blocking budget when it came first, else the timeout.
      ...(run.backgroundedOnTimeout && { timeoutMs: Math.min(timeoutMs, blockingBudgetMs() ?? timeoutMs) }),
    };
  }
  const output = foregroundOutput(input, context, cwd, choice, cwdFile, run);
  await runCwdChangedHooks(context, cwd);
  const image = output.isError ? undefined : detectImageOutput(run.output.raw);
  const forModel = image && (await imageOutputForModel(image));
  if (forModel) {
    output.image = forModel;
    output.output = forModel.note;
  }
  return output;
}

/**
 * The editor's terminal, when the editor driving the session offered terminals and the command
 * runs without the sandbox anyway (sandbox off, or this run allowed outside it): the editor
 * spawns the process, so a command meant for the sandbox must stay with Warden. Only the main
 * thread's calls: a subagent's calls are not shown in the editor, so neither would its terminal.
 */
function editorTerminalsFor(context: ToolUseContext, choice: SandboxChoice): EditorTerminals | undefined {
  if (choice.sandbox !== undefined || context.agentId !== undefined) return undefined;
  return context.options.editor?.terminals;
}

/** What the model reads of a finished foreground run, wherever it ran. */
function foregroundOutput(
  input: BashInput,
  context: ToolUseContext,
  cwd: string,
  choice: SandboxChoice,
  cwdFile: string | undefined,
  run: ForegroundResult,
): BashOutput {
  const timeoutMs = input.timeout ?? defaultTimeoutMs();
  const notes: string[] = choice.note ? [choice.note] : [];
  const reportedCwd = cwdFile ? takeReportedCwd(cwdFile) : undefined;
  const permissionContext = context.getAppState().toolPermissionContext;
  const next = resolveNewCwd({ reportedCwd, previousCwd: cwd, sessionCwd: context.options.cwd, permissionContext });
  setShellCwd(context, next.cwd);
  if (next.note) notes.push(next.note);

  // Inline, the command may have replaced the shell; with the cwd trap bash itself waited on it.
  const status = cwdFile
    ? { exitCode: run.exitCode }
    : shellExitStatus({ exitCode: run.exitCode, signal: run.signal, stoppedByUs: run.timedOut || run.interrupted });
  if (status.note) notes.push(status.note);
  // No exit code means a signal ended the shell: always a failure, whatever the command. Exit 0
  // means success for every command, so only other codes need the command's name looked up.
  const outcome: CommandOutcome =
    status.exitCode === null
      ? { isError: true }
      : status.exitCode === 0
        ? { isError: false }
        : interpretCommandResult(input.command, status.exitCode);
  const isError = outcome.isError || run.timedOut || run.interrupted;
  // Only a failed run (a syntax error) can show the inline wrapper; successful output is not scanned.
  const shown = isError && !cwdFile ? withoutInlinePrefix(run.output.text, cwd) : run.output.text;
  // The hint side channel (hints.ts): tags out of the text, their messages as notes.
  const { text: outputText, hints } = extractHints(shown);
  notes.push(...hintNotes(hints));
  if (run.leftoverProcesses) {
    notes.push(
      "The command left processes running in the background; they keep running until the session ends. Start long-running processes with run_in_background: true instead, so you can read their output and stop them.",
    );
  }
  const lockNote = isError ? gitIndexLockNote(outputText) : undefined;
  if (lockNote) notes.push(lockNote);
  if (choice.sandbox && isError) {
    const note = sandboxFailureNote(
      outputText,
      choice.sandbox.policy,
      resolveSandboxSettings(context.getAppState()).allowUnsandboxedCommands,
    );
    if (note) notes.push(note);
  }
  return {
    command: input.command,
    output: outputText,
    ...(hints.length && { hints }),
    exitCode: status.exitCode,
    signal: run.signal,
    isError,
    meaning: outcome.meaning,
    timedOut: run.timedOut,
    timeoutMs,
    interrupted: run.interrupted,
    cwd: next.cwd,
    notes,
    sandboxed: choice.sandbox !== undefined,
    fullOutputPath: run.output.fullOutputPath,
  };
}

/** The result of an in-place sed applied as the edit that was approved. */
async function sedEditOutput(
  input: BashInput,
  edit: SimulatedSedEdit,
  context: ToolUseContext,
  cwd: string,
): Promise<BashOutput> {
  const { applySimulatedSedEdit } = await import("./sed-edit/simulated-edit.js");
  const applied = await applySimulatedSedEdit(edit, context);
  const notes = [`The substitution was applied to ${edit.filePath} as an edit:`, applied.diff];
  if (applied.historyWarning) notes.push(applied.historyWarning);
  return {
    command: input.command,
    output: "",
    exitCode: 0,
    isError: false,
    timedOut: false,
    interrupted: false,
    cwd,
    notes,
    sandboxed: false,
  };
}

export const BashTool = buildTool<BashInput, BashOutput, BashProgress>({
  name: BASH_TOOL_NAME,
  searchHint: "run shell commands terminal git npm build test",
  maxResultSizeChars: BASH_MAX_RESULT_SIZE_CHARS,
  inputSchema,

  async prompt(options) {
    const sandbox = resolveSandboxSettings({ sandboxSettings: options.sandboxSettings });
    const network = sandboxNetworkFor(sandbox, options.permissionContext.rules);
    return bashPrompt({
      defaultTimeoutMs: defaultTimeoutMs(),
      maxTimeoutMs: maxTimeoutMs(),
      maxOutputChars: BASH_MAX_RESULT_SIZE_CHARS,
      sandboxEnabled: sandbox.enabled,
      sandboxAllowsNetwork: network.kind === "open",
      sandboxAllowedDomains: network.kind === "filtered" ? network.lists.allowed : [],
      sandboxDeniedDomains: network.kind === "filtered" ? network.lists.denied : [],
      sandboxAllowsUnixSockets: sandbox.allowUnixSockets,
    });
  },

  async description(input) {
    return input?.description || "Run a shell command";
  },

  userFacingName: () => BASH_TOOL_NAME,
  // Until the analysis has loaded every command counts as writing; the executor waits for it
  // rather than run read-only commands one by one because the model answered quickly.
  whenReady: bashWhenReady,
  isReadOnly,
  isConcurrencySafe: (input, scope) => isReadOnly(input, scope) && !mayChangeDirectory(input.command),
  isOpenWorld: () => true,
  // Shell steps usually depend on each other: one failing makes those beside it pointless.
  cancelsSiblingsOnError: true,
  toAutoClassifierInput: (input) => input.command,

  async validateInput(input, context) {
    if (!input.command.trim()) {
      return {
        result: false,
        message: "The command is empty: pass the shell command to run in `command`.",
        errorCode: 1,
      };
    }
    const max = maxTimeoutMs();
    if (input.timeout !== undefined && input.timeout > max) {
      return {
        result: false,
        message: `timeout ${input.timeout} ms is above the maximum of ${max} ms; pass a smaller timeout or run the command with run_in_background: true.`,
        errorCode: 2,
      };
    }
    if (!input.run_in_background) {
      const sleep = detectBlockedSleep(input.command);
      if (sleep) return { result: false, message: blockedSleepMessage(sleep), errorCode: 10 };
    }
    if (input.dangerouslyDisableSandbox) {
      const settings = resolveSandboxSettings(context.getAppState());
      if (settings.enabled && !settings.allowUnsandboxedCommands) {
        return {
          result: false,
          message:
            "Running outside the sandbox is disabled by the settings (sandbox.allowUnsandboxedCommands: false); run the command without dangerouslyDisableSandbox.",
          errorCode: 3,
        };
      }
    }
    return { result: true };
  },

  async checkPermissions(input, context) {
    const { cwd } = currentShellCwd(context);
    const result = await checkBashCommandPermissionLazily({
      command: input.command,
      cwd,
      permissionContext: context.getAppState().toolPermissionContext,
      // Made once for the call and kept in its memo: call() reads the command's facts from it.
      analyze: () => bashAnalysisOf(input.command, cwd, context.callMemo),
    });
    // An in-place sed proven to be one edit is judged, shown and applied as that edit; it runs in
    // process, so the sandbox plays no part in it.
    const sed = await inPlaceSedCommandOf(input.command, cwd, context.callMemo);
    const asEdit = sed && (await import("./sed-edit/simulated-edit.js")).sedEditPermission(input, sed, result, context);
    if (asEdit) return asEdit as PermissionResult<BashInput>;
    return (await sandboxPermission(input, context, result, cwd)) as PermissionResult<BashInput>;
  },

  async call(input, context, _canUseTool, _parentMessage, onProgress) {
    const current = currentShellCwd(context);
    const sedEdit = (input as BashInput & { _simulatedSedEdit?: SimulatedSedEdit })._simulatedSedEdit;
    if (sedEdit) return { data: await sedEditOutput(input, sedEdit, context, current.cwd) };
    if (!isDirectory(current.cwd)) {
      throw new Error(
        `the working directory ${current.cwd} does not exist (or is not a directory); the command was not run.`,
      );
    }
    if (current.resetNote) setShellCwd(context, current.cwd);
    const choice = await chooseSandbox(input, context, current.cwd);
    const facts = input.run_in_background
      ? undefined
      : await commandFactsOf(input.command, current.cwd, context.callMemo);
    const gitBefore = tracksGitOperation(facts) ? await readGitState(current.cwd) : undefined;
    const output = input.run_in_background
      ? startInBackground(input, context, current.cwd, choice)
      : await runInForeground(input, context, current.cwd, choice, facts, onProgress);
    if (gitBefore && !output.backgroundTaskId) output.notes.push(...(await describeGitChanges(current.cwd, gitBefore)));
    if (current.resetNote) output.notes.unshift(current.resetNote);
    return { data: output };
  },

  mapToolResult: bashToolResult,
});
