// The lead's side of process mode: a teammate as a `warden teammate` child process (./child.ts),
// spoken to with the Agent SDK's stream-json control protocol (../control-protocol/channel.ts) as
// an SDK speaks to a session. The child leads a process group of its own, on the orphan guard
// before it runs, so a lead killed even with SIGKILL leaves no teammate behind (and each
// teammate's own guard takes its commands). The lead's `initialize` request gives the child its
// SessionSpec (the lead's own, made headless with no transcript, serialised by
// ../session/spec-wire.ts) and its assignment; the lead answers each `can_use_tool` request with
// its own authority (its rules, its mode as the ceiling, its ask handler: the person in the CLI,
// the headless policy in -p), adds the child's spending to its ledger, lists its refused calls as
// its own and follows its state. Stopping (TeamDelete, the lead's end) sends `interrupt` and
// closes stdin; a child still there after the grace period is killed.
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { SubagentDeps } from "../../loop/subagent/deps.js";
import { joinTeam, runTeammateIdle } from "../../loop/subagent/teammate.js";
import type { Usage } from "../../messages/types.js";
import type { ModelInfo } from "../../models/resolve.js";
import { spawnGuarded } from "../../process/guarded-spawn.js";
import { releaseProcessGroup } from "../../process/orphan-guard.js";
import { deliver } from "../../session/mailbox.js";
import { setMemberActive, teammatePlanPath } from "../../session/team-files.js";
import type { PermissionDecision, PreToolUseHookDecision } from "../../tool/permission-types.js";
import { findToolByName } from "../../tool/pool.js";
import { TEAM_LEAD_NAME, type TeammateState } from "../../tool/team.js";
import type { RefusedCall, TeammateRequest, ToolInput, ToolUseContext } from "../../tool/types.js";
import { childPermissionMode } from "../../tools/agent/permissions.js";
import { newTeamMessage } from "../../tools/team-shared/messages.js";
import { ControlChannel, type JsonObject } from "../control-protocol/channel.js";
import type { SessionConfig } from "../flags/session-config.js";
import type { SessionSpec } from "../session/spec.js";
import { writeSessionSpec } from "../session/spec-wire.js";
import {
  PERMISSION_DENIAL,
  TEAMMATE_ARGS,
  TEAMMATE_IDLE,
  TEAMMATE_STATE,
  TEAMMATE_USAGE,
  type TeammateCallContext,
  type TeammateInitialize,
} from "./assignment.js";

/** How long a stopped teammate has to record its end before its group is killed. */
const STOP_GRACE_MS = 5_000;
/** Lines of a failed child's stderr the lead is told. */
const STDERR_TAIL_LINES = 20;

export interface ProcessRunnerOptions {
  config: SessionConfig;
  warn: (message: string) => void;
}

/** The `warden` the lead runs as (node, its flags such as a loader, the CLI script). */
function wardenCommand(): string[] {
  const script = process.argv[1];
  if (!script) throw new Error("cannot tell which warden to run the teammate with");
  return [process.execPath, ...process.execArgv, script];
}

function deny(message: string): PermissionDecision {
  return { behavior: "deny", message, decisionReason: { type: "other", reason: message } };
}

/** One `can_use_tool` request of the teammate: the SDK's fields and the teammate's (assignment.ts). */
interface TeammateQuestion extends TeammateCallContext {
  tool_name: string;
  input: ToolInput;
  tool_use_id: string;
}

function questionOf(request: JsonObject): TeammateQuestion {
  if (typeof request.tool_name !== "string" || typeof request.tool_use_id !== "string") {
    throw new Error("can_use_tool: tool_name and tool_use_id are needed");
  }
  if (typeof request.input !== "object" || request.input === null || Array.isArray(request.input)) {
    throw new Error("can_use_tool: input must be an object");
  }
  if (typeof request.permission_mode !== "string") throw new Error("can_use_tool: permission_mode is needed");
  return request as unknown as TeammateQuestion;
}

/**
 * The lead's word on one of the teammate's calls: its own authority, asked with a context that is
 * the lead's (rules, directories, hooks) but with the teammate's mode when that is not wider, the
 * teammate's own plan file, its shell directory and its agent id (so a prompt names the agent).
 */
function decide(
  question: TeammateQuestion,
  request: TeammateRequest,
  parent: ToolUseContext,
  abortController: AbortController,
): Promise<PermissionDecision> {
  const tool = findToolByName(parent.options.tools, question.tool_name);
  if (!tool) return Promise.resolve(deny(`The team lead has no tool named ${question.tool_name}.`));
  const ownPlan = teammatePlanPath(request.team.dir, request.name);
  const context: ToolUseContext = {
    ...parent,
    abortController,
    messages: [],
    agentId: request.agentId,
    getAppState: () => {
      const state = parent.getAppState();
      const lead = state.toolPermissionContext;
      return {
        ...state,
        ...(question.cwd ? { bashCwd: question.cwd } : {}),
        toolPermissionContext: {
          ...lead,
          mode: childPermissionMode(lead.mode, question.permission_mode),
          // An isolated teammate's workspace is its worktree, not the lead's checkout.
          ...(request.workingDirectories ? { workingDirectories: request.workingDirectories } : {}),
          ...(question.plan_file_path === ownPlan ? { planFilePath: ownPlan } : {}),
        },
      };
    },
  };
  const preToolUseDecision: PreToolUseHookDecision | undefined = question.pre_tool_use_decision;
  return request.canUseTool(
    tool,
    question.input,
    context,
    undefined,
    question.tool_use_id,
    preToolUseDecision ? { preToolUseDecision } : undefined,
  );
}

/**
 * The teammate's session: the lead's spec made headless (stream-json both ways, asks as
 * `can_use_tool`), with the lead's model, nothing to resume, no transcript of its own, and none of
 * what only the lead's own run has (its prompt, id, output schema, budget: the lead's ledger
 * counts the team's spending).
 */
function childSpecOf(config: SessionConfig, modelLabel: string): SessionSpec {
  const spec: SessionSpec = {
    ...config,
    print: true,
    inputFormat: "stream-json",
    outputFormat: "stream-json",
    permissionPromptTool: "stdio",
    continueLatest: false,
    forkSession: false,
    noSessionPersistence: true,
    model: modelLabel,
  };
  for (const key of ["prompt", "resume", "sessionId", "jsonSchema", "maxBudgetUsd"] as const) delete spec[key];
  return spec;
}

function initializeOf(
  options: ProcessRunnerOptions,
  deps: SubagentDeps,
  request: TeammateRequest,
  parent: ToolUseContext,
): TeammateInitialize {
  const state = parent.getAppState();
  return {
    session_spec: writeSessionSpec(childSpecOf(options.config, deps.modelLabel)),
    permission_context: request.workingDirectories
      ? { ...state.toolPermissionContext, workingDirectories: request.workingDirectories }
      : state.toolPermissionContext,
    lead: {
      sessionId: deps.sessionId,
      sessionCwd: deps.sessionCwd,
      startDate: deps.startDate,
      transcripts: deps.transcripts,
      loadMemory: deps.loadMemory,
      ...(deps.maxOutputTokens !== undefined ? { maxOutputTokens: deps.maxOutputTokens } : {}),
      ...(deps.contextManagement ? { contextManagement: deps.contextManagement } : {}),
    },
    teammate: {
      agentId: request.agentId,
      name: request.name,
      team: request.team,
      definition: request.definition,
      description: request.description,
      prompt: request.prompt,
      ...(request.modelSpec !== undefined ? { modelSpec: request.modelSpec } : {}),
      permissionMode: request.permissionMode,
      ...(request.maxTurns !== undefined ? { maxTurns: request.maxTurns } : {}),
      cwd: request.cwd ?? state.bashCwd ?? parent.options.cwd,
      tools: request.tools.map((tool) => tool.name),
      ...(request.history ? { history: request.history } : {}),
    },
  };
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export async function runTeammateProcess(
  options: ProcessRunnerOptions,
  deps: SubagentDeps,
  request: TeammateRequest,
  parent: ToolUseContext,
  setState: (state: TeammateState) => void,
): Promise<void> {
  const { team, name } = request;
  const init = initializeOf(options, deps, request, parent);
  // A member from now on: the lead may message it before its process has started.
  joinTeam(deps, request);
  const [program, ...args] = wardenCommand();
  const child: ChildProcess = spawnGuarded(program as string, [...args, "teammate", ...TEAMMATE_ARGS], {
    cwd: init.teammate.cwd ?? deps.sessionCwd,
    env: process.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pid = child.pid;
  const controller = new AbortController();
  request.onStart?.(controller);
  if (pid === undefined) {
    setMemberActive(team.dir, name, false);
    throw new Error(`the teammate's process did not start (${wardenCommand().join(" ")})`);
  }
  child.stdin?.on("error", () => {});
  const stderrTail: string[] = [];
  child.stderr?.setEncoding("utf8");
  createInterface({ input: child.stderr as NonNullable<typeof child.stderr> }).on("line", (line) => {
    stderrTail.push(line);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
  });
  const channel = new ControlChannel({
    input: child.stdout as NonNullable<typeof child.stdout>,
    write: (line) => {
      if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(line)}\n`);
    },
    warn: (message) => {
      stderrTail.push(`(lead) ${message}`);
      if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
    },
  });
  channel.onUserMessage(() => undefined);
  channel.onMessage((message) => {
    if (message.type !== "system") return;
    if (message.subtype === TEAMMATE_STATE) setState(message.state as TeammateState);
    else if (message.subtype === TEAMMATE_USAGE)
      deps.ledger.add(message.model_info as ModelInfo, message.usage as Usage);
    else if (message.subtype === PERMISSION_DENIAL) parent.options.reportDenial?.(message.denial as RefusedCall);
  });
  channel.onControlRequest(async (asked) => {
    // Its turn ended well: the lead's TeammateIdle hooks say whether it goes idle.
    if (asked.subtype === TEAMMATE_IDLE) {
      const idle = await runTeammateIdle(parent, request, controller.signal);
      return {
        errors: idle.errors,
        ...(idle.continueWith !== undefined && { continue_with: idle.continueWith }),
        ...(idle.stop !== undefined && { stop: idle.stop }),
      };
    }
    if (asked.subtype !== "can_use_tool")
      throw new Error(`unsupported control request ${JSON.stringify(asked.subtype)}`);
    try {
      return { ...(await decide(questionOf(asked), request, parent, controller)) };
    } catch (error) {
      return { ...deny(`The lead could not decide: ${(error as Error).message}`) };
    }
  });
  // Its answer comes once its session is built; a failed set-up also ends the process, heard below.
  channel.request({ subtype: "initialize", ...init }).catch(() => undefined);

  let stopping = false;
  const onStop = () => {
    stopping = true;
    channel.request({ subtype: "interrupt" }).catch(() => undefined);
    child.stdin?.end();
    const timer = setTimeout(() => killGroup(pid), STOP_GRACE_MS);
    timer.unref();
    child.once("exit", () => clearTimeout(timer));
  };
  controller.signal.addEventListener("abort", onStop, { once: true });

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("error", () => resolve({ code: 127, signal: null }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  controller.signal.removeEventListener("abort", onStop);
  // Strays the teammate left in its group go with it; its id may be reused from now on.
  killGroup(pid);
  releaseProcessGroup(pid);
  if (exit.code !== 0 && !stopping) {
    // It died on its own: the lead hears, as from a teammate whose work failed, and it is inactive.
    const why = `its process ended (${exit.signal ?? `exit code ${exit.code}`})${stderrTail.length ? `: ${stderrTail.join("\n")}` : ""}`;
    options.warn(`teammate ${name}: ${why}`);
    setMemberActive(team.dir, name, false);
    deliver(
      team.dir,
      TEAM_LEAD_NAME,
      newTeamMessage(name, { type: "idle_notification", idle_reason: "failed", summary: `stopped working: ${why}` }),
    );
  }
}
