// The lead's side of process mode: a teammate as a `warden teammate` child process (./child.ts).
// The child leads a process group of its own, on the orphan guard before it runs, so a lead killed
// even with SIGKILL leaves no teammate behind (and each teammate's own guard takes its commands).
// The lead writes the spec, answers each permission question with its own authority (its rules,
// its mode as the ceiling, its ask handler: the person in the CLI, the headless policy in -p), adds
// the child's spending to its ledger and follows its state. Stopping (TeamDelete, the lead's end)
// sends a stop line and closes stdin; a child still there after the grace period is killed.
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { SubagentDeps } from "../../loop/subagent/deps.js";
import { joinTeam } from "../../loop/subagent/teammate.js";
import { spawnGuarded } from "../../process/guarded-spawn.js";
import { releaseProcessGroup } from "../../process/orphan-guard.js";
import { deliver } from "../../session/mailbox.js";
import { setMemberActive, teammatePlanPath } from "../../session/team-files.js";
import type { PermissionDecision } from "../../tool/permission-types.js";
import { findToolByName } from "../../tool/pool.js";
import { TEAM_LEAD_NAME, type TeammateState } from "../../tool/team.js";
import type { TeammateRequest, ToolUseContext } from "../../tool/types.js";
import { childPermissionMode } from "../../tools/agent/permissions.js";
import { newTeamMessage } from "../../tools/team-shared/messages.js";
import type { SessionConfig } from "../flags/session-config.js";
import { type ChildLine, decodeLine, encodeLine, type PermissionQuestion, type TeammateSpec } from "./protocol.js";

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

/**
 * The lead's word on one of the teammate's calls: its own authority, asked with a context that is
 * the lead's (rules, directories, hooks) but with the teammate's mode when that is not wider, the
 * teammate's own plan file, its shell directory and its agent id (so a prompt names the agent).
 */
function decide(
  question: PermissionQuestion,
  request: TeammateRequest,
  parent: ToolUseContext,
  abortController: AbortController,
): Promise<PermissionDecision> {
  const tool = findToolByName(parent.options.tools, question.tool);
  if (!tool) return Promise.resolve(deny(`The team lead has no tool named ${question.tool}.`));
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
          mode: childPermissionMode(lead.mode, question.mode),
          // An isolated teammate's workspace is its worktree, not the lead's checkout.
          ...(request.workingDirectories ? { workingDirectories: request.workingDirectories } : {}),
          ...(question.planFilePath === ownPlan ? { planFilePath: ownPlan } : {}),
        },
      };
    },
  };
  return request.canUseTool(
    tool,
    question.input,
    context,
    undefined,
    question.toolUseId,
    question.preToolUseDecision ? { preToolUseDecision: question.preToolUseDecision } : undefined,
  );
}

function specOf(
  options: ProcessRunnerOptions,
  deps: SubagentDeps,
  request: TeammateRequest,
  parent: ToolUseContext,
): TeammateSpec {
  const state = parent.getAppState();
  const { config } = options;
  return {
    type: "spec",
    config,
    permissionContext: request.workingDirectories
      ? { ...state.toolPermissionContext, workingDirectories: request.workingDirectories }
      : state.toolPermissionContext,
    session: {
      modelLabel: deps.modelLabel,
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
  const spec = specOf(options, deps, request, parent);
  // A member from now on: the lead may message it before its process has started.
  joinTeam(deps, request);
  const [program, ...args] = wardenCommand();
  const child: ChildProcess = spawnGuarded(program as string, [...args, "teammate"], {
    cwd: spec.teammate.cwd ?? deps.sessionCwd,
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
  const write = (line: Parameters<typeof encodeLine>[0]) => {
    if (child.stdin?.writable) child.stdin.write(encodeLine(line));
  };
  child.stdin?.on("error", () => {});
  write(spec);

  const stderrTail: string[] = [];
  child.stderr?.setEncoding("utf8");
  createInterface({ input: child.stderr as NonNullable<typeof child.stderr> }).on("line", (line) => {
    stderrTail.push(line);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
  });
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout>, crlfDelay: Infinity });
  lines.on("line", (text) => {
    const line = decodeLine<ChildLine>(text);
    if (!line) return;
    if (line.type === "state") setState(line.state);
    else if (line.type === "usage") deps.ledger.add(line.info, line.usage);
    else if (line.type === "permission") {
      decide(line, request, parent, controller).then(
        (decision) => write({ type: "decision", id: line.id, decision }),
        (error: unknown) =>
          write({ type: "decision", id: line.id, decision: deny(`The lead could not decide: ${String(error)}`) }),
      );
    }
  });

  let stopping = false;
  const onStop = () => {
    stopping = true;
    write({ type: "stop", reason: String(controller.signal.reason ?? "stopped") });
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
