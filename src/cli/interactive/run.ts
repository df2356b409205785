// `warden` in a terminal without -p: the interactive session. The plain prompt is already drawn
// and keys are being captured (main.ts started that before anything heavy loaded); here the UI
// library loads while the folder's trust is checked, the trust question is asked when its
// settings would widen what Warden may do, and then the session runs in the UI until the person
// exits. Loaded only on this path: a headless run never pays for ink and react.
import { loadMemory } from "../../config/memory.js";
import { externalImportsDecision, recordExternalImportsDecision } from "../../config/memory-approval.js";
import { inspectWorkspaceTrust, trustWorkspace } from "../../config/workspace-trust.js";
import { isDirectory } from "../../fs/path-kind.js";
import { addToUserSettingList } from "../../permissions/settings/index.js";
import { BRACKETED_PASTE_OFF, type EarlyInput } from "../../ui/early-input.js";
import type { OpenSessionOptions, SessionHandle } from "../../ui/run.js";
import { parseSessionArgs, type SessionConfig, UsageError } from "../flags/session-config.js";
import { SEE_HELP } from "../headless/setup-failure.js";
import { latestSession, openInteractiveSession } from "./session.js";

const err = (text: string) => void process.stderr.write(text);

export async function runInteractive(argv: string[], early: EarlyInput): Promise<number> {
  let config: SessionConfig;
  try {
    config = parseSessionArgs(argv);
  } catch (error) {
    early.restore();
    if (!(error instanceof UsageError)) throw error;
    err(`warden: ${error.message}\n${SEE_HELP}\n`);
    return 2;
  }
  if (!isDirectory(config.cwd)) {
    early.restore();
    err(`warden: --cwd ${config.cwd} is not a directory\n`);
    return 2;
  }
  // ink's colours come from chalk, which reads FORCE_COLOR when it loads.
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") process.env.FORCE_COLOR = "0";
  const uiLoading = import("../../ui/run.js");
  let trust: ReturnType<typeof inspectWorkspaceTrust>;
  try {
    trust = inspectWorkspaceTrust(config.cwd, {
      extraSettings: config.settings !== undefined ? [config.settings] : [],
    });
  } catch (error) {
    early.restore();
    err(`warden: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const ui = await uiLoading;
  // The UI's code is evaluated in one synchronous step (compiled from V8's code cache), and its
  // first frame is another: one turn of the event loop between them lets the plain prompt echo
  // the keys typed meanwhile, instead of leaving them unechoed until the full UI draws them.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const terminal = { stdin: process.stdin, stdout: process.stdout };
  const earlyInput = early.handOver();
  let current: SessionHandle | undefined;
  // Said once the terminal is restored: the UI has already taken its frame off the screen.
  let startFailure: string | undefined;
  try {
    if (trust.status === "untrusted" && !config.trustProject) {
      const trusted = await ui.askWorkspaceTrust(terminal, trust);
      if (!trusted) {
        err(
          `warden: the folder is not trusted; nothing from it was run.\nTo trust it later: warden trust ${trust.folder} (it shows what the folder grants first). \`warden -p\` runs here without trusting it, its settings applied only where they restrict.\n`,
        );
        return 1;
      }
      trustWorkspace(trust);
    }
    // Memory files that import files from outside the project: asked once per project, before
    // the system prompt is built (headless sessions leave them out with a notice).
    if (externalImportsDecision(config.cwd) === undefined) {
      const { externalSkipped } = loadMemory(config.cwd, { externalImports: "skip" });
      if (externalSkipped.length > 0) {
        const approved = await ui.askExternalMemoryImports(terminal, config.cwd, externalSkipped);
        recordExternalImportsDecision(config.cwd, approved ? "approved" : "declined");
      }
    }
    const permissions = new ui.PermissionQueue();
    const elicitations = new ui.ElicitationQueue();
    // "Always" for a server's sampling goes to the user's settings, where headless sessions read it too.
    const samplings = new ui.SamplingQueue((server) => {
      try {
        addToUserSettingList("mcpSamplingServers", server);
      } catch (error) {
        current?.notices.push(
          `warning: "${server}" may sample for the rest of this session, but it was not saved: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
    const openWith = (sessionConfig: SessionConfig) => (options: OpenSessionOptions) =>
      openInteractiveSession(sessionConfig, { permissions, elicitations, samplings }, options);
    // --session-id names the first session only: one /clear or /model opens later is a new one.
    const open = openWith(config.sessionId === undefined ? config : { ...config, sessionId: undefined });
    const resume = config.resume ?? (config.continueLatest ? latestSession(config.cwd) : undefined);
    if (config.continueLatest && resume === undefined) {
      err(`warden: no earlier session in ${config.cwd} to continue\n`);
      return 1;
    }
    const first = openWith(config)({ resume });
    first.then(
      (handle) => {
        current = handle;
      },
      () => undefined,
    );
    return await ui
      .runSessionUi({
        terminal,
        cwd: config.cwd,
        session: first,
        openSession: open,
        permissions,
        elicitations,
        samplings,
        earlyInput,
        initialPrompt: config.prompt,
        // `warden -r`: the picker /resume opens, once the session is there.
        ...(config.pickResume && { initialCommand: "/resume" }),
        onHandleChange: (handle) => {
          current = handle;
        },
      })
      .catch((error: unknown) => {
        if (!(error instanceof ui.SessionStartFailed)) throw error;
        startFailure = error.message;
        return 1;
      });
  } finally {
    await current?.close();
    process.stdout.write(BRACKETED_PASTE_OFF);
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    process.stdin.pause();
    if (startFailure !== undefined) err(`warden: ${startFailure}\n`);
  }
}
