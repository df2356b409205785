// The interactive session: the transcript (finished items written once, as a terminal scrolls),
// the live part (streaming text, running tools, the todo panel), then whichever has the keys (a
// permission question, a pick list, or the prompt), and the status line. The App runs prompts,
// sends messages typed meanwhile to the running prompt, and handles the session keys: ESC
// interrupts, Ctrl+C twice or Ctrl+D on an empty prompt exits, Shift+Tab cycles the mode.
import { Box, Text, useStdin, useStdout } from "ink";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import type { PermissionMode } from "../../tool/permission-types.js";
import { currentTaskList } from "../../tool/task-list.js";
import { customCommandEntries, suggestCommands } from "../commands/custom-commands.js";
import type { CommandContext, SlashCommand } from "../commands/slash-commands.js";
import { parseSlashCommand } from "../commands/slash-commands.js";
import { Prompt } from "../components/Prompt.js";
import { StatusLine } from "../components/StatusLine.js";
import type { ElicitationQueue } from "../dialogs/elicitation-queue.js";
import type { PermissionQueue } from "../dialogs/permission-queue.js";
import type { SamplingQueue } from "../dialogs/sampling-queue.js";
import { completeMention } from "../input/file-mentions.js";
import type { KeyName } from "../input/keys.js";
import { keySourceFor, useKeys } from "../input/use-keys.js";
import type { TranscriptModel } from "../transcript/transcript-model.js";
import { sessionCommandContext } from "./command-context.js";
import { LivePart } from "./LivePart.js";
import { attachPromptMentions } from "./prompt-mentions.js";
import { type Picking, Questions } from "./Questions.js";
import { takeBackTypedMessages } from "./queued-drafts.js";
import type { OpenSession, SessionHandle } from "./session-handle.js";
import { handleSessionKey } from "./session-keys.js";
import { runShellCommand } from "./shell-command.js";
import { countResponseUsage, sessionStatus } from "./status.js";
import { FinishedItems } from "./TranscriptView.js";
import { useCustomStatusLine } from "./use-custom-status-line.js";
import { useExitAfterLastFrame } from "./use-exit.js";
import { useIdleNotification } from "./use-idle-notification.js";
import { CLEAR_SCREEN_AND_SCROLLBACK, useRedrawOnShrink } from "./use-redraw-on-shrink.js";
import { showNotices, useSessionFeeds } from "./use-session-feeds.js";
import { showWakeReason, useWake } from "./use-wake.js";

export interface AppProps {
  /** The session's working directory (`@path` mentions are completed from it). */
  cwd: string;
  session: Promise<SessionHandle>;
  openSession: OpenSession;
  transcript: TranscriptModel;
  permissions: PermissionQueue;
  /** Questions MCP servers ask the person, shown after any permission question. */
  elicitations: ElicitationQueue;
  /** MCP servers' requests for a completion from the model, each waiting for the person's yes. */
  samplings: SamplingQueue;
  commands: readonly SlashCommand[];
  /** Raw input typed before the UI loaded, replayed into the prompt. */
  earlyInput: string;
  /** A prompt given on the command line, sent once the session is ready. */
  initialPrompt?: string;
  /** A slash command run as if typed first, once (`warden -r` opens /resume's picker). */
  initialCommand?: string;
  onExit(code: number): void;
  /**
   * The session could not start (settings that cannot be read safely, an unknown --resume id...):
   * the caller takes the frame off the screen and says why, so the error is not left under a
   * prompt that was never usable.
   */
  onStartFailed(error: unknown): void;
  onHandleChange?(handle: SessionHandle): void;
}

export function App(props: AppProps) {
  const { transcript, permissions, elicitations, samplings } = props;
  const { stdin } = useStdin();
  const { stdout, write: writeAboveFrame } = useStdout();
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const [handle, setHandle] = useState<SessionHandle>();
  const handleRef = useRef<SessionHandle | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const waiting = useRef<string[]>(props.initialPrompt ? [props.initialPrompt] : []);
  const [hint, setHint] = useState<string>();
  /** Messages typed while the prompt ran and queued for the model; those it never read come back (queued-drafts.ts). */
  const queuedTyped = useRef<string[]>([]);
  const [restore, setRestore] = useState<{ text: string; seq: number }>();
  const ctrlCAt = useRef(0);
  const [picking, setPicking] = useState<Picking>();
  const [staticKey, setStaticKey] = useState(0);
  const redrawFinished = useCallback(() => setStaticKey((k) => k + 1), []);
  useRedrawOnShrink(stdout, writeAboveFrame, redrawFinished);
  const [now, setNow] = useState(Date.now());
  const primed = useRef(false);
  const lastContext = useRef<number | undefined>(undefined);
  /** The user's and the project's commands and skills, as last read from disk (a `/` reads them again). */
  const [customCommands, setCustomCommands] = useState<readonly SlashCommand[]>([]);
  /** Tokens of the running prompt's requests so far (the session adds them up when it ends). */
  const runningTokens = useRef({ input: 0, output: 0 });
  /** Stops what runs beside the model (a `!command`, the Reads of `@file` mentions) on Esc. */
  const sideAbort = useRef<AbortController | undefined>(undefined);

  const markBusy = useCallback((value: boolean) => {
    busyRef.current = value;
    setBusy(value);
  }, []);

  if (!primed.current) {
    primed.current = true;
    if (props.earlyInput) keySourceFor(stdin).prime(props.earlyInput);
  }

  useEffect(() => transcript.subscribe(redraw), [transcript]);
  useEffect(() => permissions.subscribe(redraw), [permissions]);
  // A call's elapsed time counts from the person's answer, not from while its question was open.
  useEffect(() => {
    let waiting = new Set(permissions.toolUseIds);
    return permissions.subscribe(() => {
      const now = new Set(permissions.toolUseIds);
      for (const id of waiting) if (!now.has(id)) transcript.restartClock(id);
      waiting = now;
    });
  }, [permissions, transcript]);
  useEffect(() => elicitations.subscribe(redraw), [elicitations]);
  useEffect(() => samplings.subscribe(redraw), [samplings]);
  useSessionFeeds(handle, transcript);

  // The elapsed time of running tools ticks while something runs.
  const tasksRunning =
    handle?.engine
      .getAppState()
      .backgroundTasks?.list()
      .some((t) => t.status === "running") ?? false;
  useEffect(() => {
    if (!busy && !tasksRunning) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [busy, tasksRunning]);

  const refreshCustomCommands = useCallback(async (): Promise<readonly SlashCommand[]> => {
    const current = handleRef.current;
    if (!current) return [];
    try {
      const entries = customCommandEntries(await current.customCommands(), props.commands);
      setCustomCommands(entries);
      return entries;
    } catch (error) {
      transcript.addNotice(
        `Could not read your commands: ${error instanceof Error ? error.message : String(error)}`,
        "error",
      );
      return [];
    } finally {
      showNotices(current, transcript);
    }
  }, [props.commands, transcript]);

  const adopt = useCallback(
    (next: SessionHandle) => {
      handleRef.current = next;
      setHandle(next);
      props.onHandleChange?.(next);
      void refreshCustomCommands();
    },
    [props.onHandleChange, refreshCustomCommands],
  );

  /** Attaches the files a prompt mentions (`@path`); false when Esc stopped it (the prompt is then not sent). */
  const attachMentions = useCallback(
    (current: SessionHandle, text: string) => attachPromptMentions(current, text, transcript, sideAbort),
    [transcript],
  );

  /** Runs a prompt, or with no text the turn an idle session takes for what arrived (useWake). */
  const runPrompt = useCallback(
    async (text: string | undefined) => {
      const current = handleRef.current;
      if (!current) {
        if (text === undefined) return;
        // The prompt is on screen already (onSubmit shows it): it was shown twice.
        waiting.current.push(text);
        transcript.addNotice("(sent once the session has started)");
        return;
      }
      if (text === undefined && (busyRef.current || !current.engine.wakeDue)) return;
      markBusy(true);
      try {
        if (text === undefined) showWakeReason(current, transcript);
        else if (!(await attachMentions(current, text))) return;
        const run = text === undefined ? current.runWake() : current.runPrompt(text);
        for await (const event of run) {
          if (event.type === "assistant" && event.message.usage) {
            countResponseUsage(event.message.usage, runningTokens.current, lastContext);
          }
          // The session has added this query's usage to its own total now.
          if (event.type === "terminal") runningTokens.current = { input: 0, output: 0 };
          transcript.apply(event);
        }
      } catch (error) {
        transcript.addNotice(`Error: ${error instanceof Error ? error.message : String(error)}`, "error");
      } finally {
        runningTokens.current = { input: 0, output: 0 };
        const unread = takeBackTypedMessages(current.engine.channels.userMessages, queuedTyped.current.splice(0));
        if (unread.length > 0) {
          setRestore((last) => ({ text: unread.join("\n"), seq: (last?.seq ?? 0) + 1 }));
          transcript.addNotice(
            `(the prompt stopped before the model read ${unread.length === 1 ? "your queued message" : "your queued messages"}: back in the prompt to send again or edit)`,
          );
        }
        markBusy(false);
        showNotices(current, transcript);
      }
    },
    [transcript, attachMentions, markBusy],
  );

  // The session becomes ready (model, settings, MCP servers): prompts typed meanwhile go out.
  useEffect(() => {
    let cancelled = false;
    props.session.then(
      async (ready) => {
        if (cancelled) return;
        adopt(ready);
        // `--continue` / `--resume ID`: the conversation so far, as /resume shows it.
        if (ready.engine.messages.length > 0) {
          transcript.addNotice(`Resumed session ${ready.engine.sessionId}:`);
          transcript.showResumed(ready.engine.messages, currentTaskList(ready.engine.getAppState()));
        }
        showNotices(ready, transcript);
        const queued = waiting.current.splice(0);
        if (queued.length > 0) {
          await runPrompt(queued.join("\n\n"));
        }
      },
      (error: unknown) => {
        if (!cancelled) props.onStartFailed(error);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [props.session, adopt, runPrompt, transcript, props.onStartFailed]);

  useWake(handle, busy, runPrompt);
  useIdleNotification(handle, busy);

  const mode: PermissionMode = handle?.engine.getAppState().toolPermissionContext.mode ?? "default";
  const customStatus = useCustomStatusLine(
    handle,
    `${busy}|${mode}|${runningTokens.current.input}|${runningTokens.current.output}|${lastContext.current}`,
  );

  const setMode = useCallback(
    (next: PermissionMode) => {
      const commands = handleRef.current?.commands;
      if (!commands) return;
      try {
        commands.setPermissionMode(next);
      } catch (error) {
        transcript.addNotice(`Mode not changed: ${error instanceof Error ? error.message : String(error)}`, "error");
      }
      redraw();
    },
    [transcript],
  );

  const cycleMode = useCallback(() => {
    const engine = handleRef.current?.engine;
    if (!engine) return;
    const context = engine.getAppState().toolPermissionContext;
    const cycle: PermissionMode[] = ["default", "acceptEdits", "plan"];
    if (context.isBypassPermissionsModeAvailable) cycle.push("bypassPermissions");
    const index = cycle.indexOf(context.mode);
    setMode(cycle[(index + 1) % cycle.length] ?? "default");
  }, [setMode]);

  const { exiting, exit } = useExitAfterLastFrame(props.onExit);

  const pick = useCallback(
    (title: string, choices: ReadonlyArray<{ label: string; value: string }>) =>
      new Promise<string | undefined>((resolve) => {
        setPicking({
          title,
          choices,
          resolve: (value) => {
            setPicking(undefined);
            resolve(value);
          },
        });
      }),
    [],
  );

  const commandContext = (current: SessionHandle): CommandContext =>
    sessionCommandContext(current, {
      current: () => handleRef.current ?? current,
      transcript,
      submitPrompt: (prompt) => void runPrompt(prompt),
      openSession: props.openSession,
      showSession: (next) => {
        // Through ink, which draws its frame again after the clear: written straight to stdout, the
        // screen stayed blank until the next key whenever the new session's frame equalled the old.
        writeAboveFrame(CLEAR_SCREEN_AND_SCROLLBACK);
        transcript.clear();
        setStaticKey((k) => k + 1);
        adopt(next);
        showNotices(next, transcript);
      },
      pick,
      setBusy: markBusy,
      setMode,
      columns: () => stdout.columns || 80,
      customCommands: refreshCustomCommands,
      exit,
    });

  const onSubmit = (text: string) => {
    const command = parseSlashCommand(text);
    const current = handleRef.current;
    if (command) {
      const found = props.commands.find((c) => c.name === command.name);
      if (found) {
        transcript.addUser(text);
        if (busyRef.current && found.name !== "exit") {
          transcript.addNotice(`/${found.name} waits until the running prompt is done (or press Esc).`, "warning");
          return;
        }
        // Typed while the session still starts: it runs once the session is there.
        const ready = current ? Promise.resolve(current) : props.session;
        ready
          .then((handle) => found.run(commandContext(handleRef.current ?? handle), command.args))
          .catch((error: unknown) =>
            transcript.addNotice(`/${found.name}: ${error instanceof Error ? error.message : String(error)}`, "error"),
          );
        return;
      }
    }
    const shell = /^!\s*([\s\S]+)$/.exec(text.trim());
    if (shell && !busyRef.current) {
      transcript.addUser(text);
      const ready = current ? Promise.resolve(current) : props.session;
      void ready.then((handle) => runShell(handle, (shell[1] as string).trim()));
      return;
    }
    if (shell) {
      // Queued, `!ls` would reach the model as words, never run: it goes back for after the prompt.
      setRestore((last) => ({ text, seq: (last?.seq ?? 0) + 1 }));
      transcript.addNotice("(a !command runs when the model is not working: it is back in the prompt, send it then)");
      return;
    }
    if (busyRef.current && current) {
      transcript.addUser(text);
      void sendWhileRunning(current, text);
      return;
    }
    transcript.addUser(text);
    void runPrompt(text);
  };

  const sendWhileRunning = async (current: SessionHandle, text: string) => {
    if (!(await attachMentions(current, text))) return;
    // The prompt may have ended while the files were read: then this message starts the next one.
    if (!current.engine.isRunning) {
      void runPrompt(text);
      return;
    }
    const outcome = current.engine.sendWhileRunning(text);
    if (outcome !== "interrupted") queuedTyped.current.push(text);
    transcript.addNotice(
      outcome === "interrupted"
        ? "(interrupted the running tools; your message goes to the model now)"
        : "(queued: the model reads it at its next turn)",
    );
  };

  const runShell = (handle: SessionHandle, command: string) =>
    runShellCommand(handle, command, transcript, sideAbort, markBusy);

  const onOtherKey = (name: KeyName, promptIsEmpty: boolean) =>
    handleSessionKey(name, promptIsEmpty, {
      busy: busyRef.current,
      engine: handleRef.current?.engine,
      commands: handleRef.current?.commands,
      sideAbort: sideAbort.current,
      cycleMode,
      exit,
      transcript,
      ctrlCAt,
      setHint,
    });

  const ask = permissions.current;
  const question = ask ? undefined : elicitations.current;
  const sampling = ask || question ? undefined : samplings.current;
  // A dialog holds the keys while it shows (the prompt listens to none), but Ctrl+C keeps its
  // meaning: it interrupts what runs and, pressed twice, exits (it clears no draft here: "empty").
  useKeys(
    (event) => {
      if (event.kind === "key" && event.name === "ctrlC") onOtherKey("ctrlC", true);
    },
    Boolean(ask || question || sampling || picking),
  );
  // Run once, with the first render's submit: a command waits for the session as a typed one does.
  const initialCommand = useRef(props.initialCommand);
  useEffect(() => {
    const command = initialCommand.current;
    initialCommand.current = undefined;
    if (command) onSubmit(command);
  });
  const engine = handle?.engine;
  const status = sessionStatus({
    mode,
    engine,
    running: runningTokens.current,
    lastContextTokens: lastContext.current,
    hint: exiting ? undefined : (hint ?? (handle ? undefined : "starting…")),
  });
  return (
    <Box flexDirection="column">
      <FinishedItems key={staticKey} items={[...transcript.items]} width={stdout.columns || 80} />
      <LivePart
        transcript={transcript}
        now={now}
        backgroundTasks={engine ? (engine.getAppState().backgroundTasks?.list() ?? []) : undefined}
        working={busy && !ask && !question && !sampling}
        asking={new Set(permissions.toolUseIds)}
      />
      <Box marginTop={1} flexDirection="column">
        <Questions
          ask={ask && handle ? { pending: ask, cwd: handle.engine.cwd } : undefined}
          question={question}
          sampling={sampling}
          picking={picking}
          cwd={props.cwd}
          onRefused={() => handleRef.current?.commands.interrupt("user")}
          onPlanApproved={(plan) => transcript.addPlan(plan)}
        />
        <Box borderStyle="round" borderColor="gray" borderLeft={false} borderRight={false} paddingX={0}>
          <Prompt
            active={!ask && !question && !sampling && !picking}
            onSubmit={onSubmit}
            onOtherKey={onOtherKey}
            placeholder={busy ? "Type to queue a message for the model" : undefined}
            completeMention={(partial) => completeMention(partial, props.cwd)}
            suggestCommands={(text) => suggestCommands(text, [...props.commands, ...customCommands])}
            onSlash={() => void refreshCustomCommands()}
            // The prompt, its borders and the status line stay on screen under the list.
            maxSuggestions={Math.max(4, (stdout.rows ?? 24) - 8)}
            restore={restore}
          />
        </Box>
        <StatusLine status={status} />
        {customStatus !== undefined && <Text>{customStatus}</Text>}
      </Box>
    </Box>
  );
}
