// One teammate's life, in process: a child agent (./child.ts) in its team's context (the team's
// task list, its own plan file, SendMessage to talk) that works on its prompt, then goes idle,
// telling the lead (an idle notification in the lead's mailbox), and waits for a message; a
// message wakes it and it works again, delivered at the start of its next turn by SendMessage's
// mailbox attachment. It ends when it approves a shutdown request (after that turn's calls), when
// it is stopped (TeamDelete, the session ending), never by itself. Its messages go to its
// sidechain transcript; the team file marks it inactive when it ends. Loaded on the first spawn.
import { randomBytes } from "node:crypto";
import { addUsage, emptyUsage, type Message, userText } from "../../messages/types.js";
import { deliver, waitForMail } from "../../session/mailbox.js";
import { addTeamMember, setMemberActive, teammatePlanPath, teamTaskStore } from "../../session/team-files.js";
import { type StructuredTeamMessage, TEAM_LEAD_NAME, type TeammateState } from "../../tool/team.js";
import type { TeammateIdleAnswer, TeammateRequest, ToolUseContext } from "../../tool/types.js";
import { SessionAttachments } from "../reminders.js";
import { MAX_STOP_HOOK_CONTINUATIONS } from "../session-hooks.js";
import { childQueryParams, setUpChild, sidechainPath } from "./child.js";
import type { SubagentDeps } from "./deps.js";
import { driveChildLoop } from "./drive.js";

/** How much of its last words an idle notification carries. */
const IDLE_SUMMARY_CHARS = 300;

function teammateIntro(request: TeammateRequest): string {
  const { teamName } = request.team;
  return `# Your team
You are "${request.name}", a teammate in the team "${teamName}", led by "${TEAM_LEAD_NAME}".
- The team shares one task list (TaskList, TaskGet, TaskUpdate, TaskCreate). Take a task by setting it in_progress (you become its owner), mark it completed when done, then look for the next one that has no owner and is not blocked.
- Nobody reads your plain text output. Report to the lead, and talk with other members, through SendMessage.
- When you have nothing left to do, end your turn: you go idle (the lead is told) and wake when a message arrives.
- When the lead sends a shutdown_request, wrap up and answer with SendMessage shutdown_response (approve: true ends your work).`;
}

function notice(from: string, structured: StructuredTeamMessage) {
  return {
    id: randomBytes(6).toString("hex"),
    from,
    text: JSON.stringify(structured),
    structured,
    timestamp: new Date().toISOString(),
    read: false,
  };
}

/** Writes the teammate into the team file as an active member (before it runs: the lead may message it at once). */
export function joinTeam(deps: SubagentDeps, request: TeammateRequest): void {
  addTeamMember(request.team.dir, {
    name: request.name,
    agentId: request.agentId,
    agentType: request.definition.agentType,
    ...(request.modelSpec ? { model: request.modelSpec } : {}),
    joinedAt: new Date().toISOString(),
    active: true,
    ...(deps.transcripts ? { transcriptPath: sidechainPath(deps.sessionCwd, deps.sessionId, request.agentId) } : {}),
    ...(request.worktree ? { worktree: request.worktree } : {}),
  });
}

export async function runTeammate(
  deps: SubagentDeps,
  request: TeammateRequest,
  parent: ToolUseContext,
  setState: (state: TeammateState) => void,
): Promise<void> {
  const { team, name } = request;
  const startedAt = performance.now();
  joinTeam(deps, request);
  const setup = await setUpChild(deps, request, parent, {
    introSuffix: teammateIntro(request),
    entry: { teamName: team.teamName, name },
  });
  const { context, transcript } = setup;
  // Its place in the team, the team's list, and a plan file of its own (not the lead's). Started
  // in plan mode, it returns to the lead's mode once the lead approves its plan.
  const leadMode = parent.getAppState().toolPermissionContext.mode;
  context.setAppState((prev) => ({
    ...prev,
    team,
    taskStore: teamTaskStore(team.dir),
    toolPermissionContext: { ...prev.toolPermissionContext, planFilePath: teammatePlanPath(team.dir, name) },
    ...(request.permissionMode === "plan" && leadMode !== "plan" ? { planMode: { previousMode: leadMode } } : {}),
  }));
  const signal = context.abortController.signal;
  const attachments = new SessionAttachments({ startDate: deps.startDate, prefix: setup.prefix });
  const messages: Message[] = [...setup.messages];
  let turns = 0;
  let usage = emptyUsage();
  let reason = "stopped";
  let error: string | undefined;
  /** Turns in a row a TeammateIdle hook kept it working (past the bound it goes idle anyway). */
  let keptWorking = 0;
  try {
    while (!signal.aborted) {
      setState("working");
      const run = await driveChildLoop(
        { ...childQueryParams(deps, setup, request, messages), attachments },
        transcript,
        (event) => {
          if (event.type === "assistant" || event.type === "user") messages.push(event.message);
          else if (event.type === "compact_boundary") messages.splice(0, messages.length, ...event.messages);
          // A shutdown it approved: the turn's calls are answered; no further request.
          return event.type === "user" && context.channels.shutdownApproved.raised;
        },
      );
      const { terminal, lastText } = run;
      if (terminal) {
        turns += terminal.turnCount;
        usage = addUsage(usage, terminal.usage);
      }
      if (context.channels.shutdownApproved.raised) {
        reason = "shutdown";
        break;
      }
      if (signal.aborted) break;
      const failed = terminal !== undefined && terminal.reason !== "completed";
      if (failed) error = terminal?.error ?? terminal?.reason;
      if (!failed) {
        const idle = await teammateIdleHooks(context, request, keptWorking, (hookError) =>
          transcript?.recordEntry({ type: "hook_error", agentId: request.agentId, error: hookError }),
        );
        if (idle.stop !== undefined) {
          reason = "stopped by a TeammateIdle hook";
          error = idle.stop;
          break;
        }
        if (idle.continueWith !== undefined) {
          keptWorking++;
          const next = userText(`A TeammateIdle hook asked you to keep working: ${idle.continueWith}`);
          messages.push(next);
          transcript?.recordMessage(next);
          continue;
        }
      }
      keptWorking = 0;
      // The lead hears before the state changes, so it never sees an idle team with no mail.
      const summary = failed ? `stopped working: ${error}` : lastText.slice(0, IDLE_SUMMARY_CHARS);
      deliver(
        team.dir,
        TEAM_LEAD_NAME,
        notice(name, {
          type: "idle_notification",
          idle_reason: failed ? "failed" : "available",
          ...(summary ? { summary } : {}),
        }),
      );
      setState("idle");
      await waitForMail(team.dir, name, signal);
    }
  } finally {
    setup.unlink();
    await setup.stopServers();
    setMemberActive(team.dir, name, false);
    transcript?.recordEntry({
      type: "agent_result",
      agentId: request.agentId,
      name,
      teamName: team.teamName,
      reason,
      turns,
      usage,
      durationMs: performance.now() - startedAt,
      ...(error !== undefined ? { error } : {}),
    });
    transcript?.close();
  }
}

/**
 * The TeammateIdle hooks of `context`'s session for this teammate (a process teammate's lead runs
 * them with this too, when its child asks).
 */
export async function runTeammateIdle(
  context: ToolUseContext,
  request: { team: { teamName: string }; name: string },
  signal: AbortSignal,
): Promise<TeammateIdleAnswer> {
  const hooks = context.getAppState().hooks;
  if (!hooks?.has("TeammateIdle")) return { errors: [] };
  return hooks.teammateIdle({ teamName: request.team.teamName, name: request.name }, signal);
}

/**
 * TeammateIdle hooks, when a turn ends well and the teammate would go idle: exit code 2 or
 * `decision: "block"` keeps it working with the reason; `continue: false` ends it. Their failures
 * go to its transcript.
 */
async function teammateIdleHooks(
  context: ToolUseContext,
  request: TeammateRequest,
  keptWorking: number,
  recordError: (error: string) => void,
): Promise<{ continueWith?: string; stop?: string }> {
  const result = request.onIdle
    ? await request.onIdle(context.abortController.signal)
    : await runTeammateIdle(context, request, context.abortController.signal);
  const errors = [...result.errors];
  let continueWith = result.continueWith;
  if (continueWith !== undefined && keptWorking >= MAX_STOP_HOOK_CONTINUATIONS) {
    errors.push(`TeammateIdle hooks kept ${request.name} working ${keptWorking} times in a row; it goes idle anyway`);
    continueWith = undefined;
  }
  for (const error of errors) recordError(error);
  return {
    ...(continueWith !== undefined && { continueWith }),
    ...(result.stop !== undefined && { stop: result.stop }),
  };
}
