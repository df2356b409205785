// The teammate's side of process mode (`warden teammate --input-format stream-json --output-format
// stream-json`, started by ./process-runner.ts): it speaks the Agent SDK's control protocol with
// its lead. The lead's `initialize` request brings the teammate's SessionSpec (read back by
// ../session/spec-wire.ts, the schema that wrote it) and its assignment; the session is built as
// `-p` builds one (same settings, MCP servers, hooks and tools) with no transcript of its own, then
// runs the same teammate loop the lead would run in process (loop/subagent/teammate.ts), filed
// under the lead's session. Every tool call it makes goes to the lead as a `can_use_tool` request,
// so the lead's rules, mode and ask handler hold as they do for an in-process teammate. Its state,
// spending and refused calls are `system` messages to the lead. An `interrupt` request, or stdin
// closing (the lead is gone), ends it.
import type { SubagentDeps } from "../../loop/subagent/deps.js";
import type { Usage } from "../../messages/types.js";
import { UsageLedger } from "../../models/cost.js";
import type { ModelInfo } from "../../models/resolve.js";
import { createHeadlessAskHandler } from "../../permissions/engine/index.js";
import type { PermissionDecision } from "../../tool/permission-types.js";
import type { CanUseTool, TeammateIdleAnswer, TeammateRequest } from "../../tool/types.js";
import { ControlChannel, type JsonObject } from "../control-protocol/channel.js";
import type { SessionSpec } from "../session/spec.js";
import { readSessionSpec } from "../session/spec-wire.js";
import {
  PERMISSION_DENIAL,
  TEAMMATE_ARGS,
  TEAMMATE_IDLE,
  TEAMMATE_STATE,
  TEAMMATE_USAGE,
  type TeammateCallContext,
  type TeammateInitialize,
} from "./assignment.js";

const leadGone = (message: string): PermissionDecision => ({
  behavior: "deny",
  message,
  decisionReason: { type: "other", reason: message },
});

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The lead's answer to `can_use_tool` as a decision; anything unreadable is no permission. */
function decisionOf(answer: JsonObject): PermissionDecision {
  if (answer.behavior === "allow" || answer.behavior === "deny" || answer.behavior === "ask") {
    if (answer.behavior !== "allow" && typeof answer.message !== "string") {
      return leadGone("The team lead's answer gave no reason.");
    }
    return answer as unknown as PermissionDecision;
  }
  return leadGone("The team lead's answer could not be read.");
}

/** The initialize request's assignment, checked for the fields the child cannot do without. */
function assignmentOf(request: JsonObject): TeammateInitialize {
  if (typeof request.session_spec !== "string") throw new Error("initialize: session_spec is missing");
  if (!isObject(request.permission_context)) throw new Error("initialize: permission_context is missing");
  if (!isObject(request.lead)) throw new Error("initialize: lead is missing");
  const teammate = request.teammate;
  if (!isObject(teammate) || typeof teammate.agentId !== "string" || !Array.isArray(teammate.tools)) {
    throw new Error("initialize: teammate is missing or incomplete");
  }
  return request as unknown as TeammateInitialize;
}

/** The child's spec as the lead wrote it: a spec that is not headless and private is refused. */
function childSpecOf(text: string): SessionSpec {
  const spec = readSessionSpec(text, "initialize: session_spec");
  if (!spec.noSessionPersistence || spec.resume !== undefined || spec.continueLatest) {
    throw new Error("initialize: a teammate's session keeps no transcript of its own and resumes none");
  }
  return spec;
}

export async function runTeammateChild(argv: readonly string[]): Promise<number> {
  if (argv.join(" ") !== TEAMMATE_ARGS.join(" ")) {
    process.stderr.write(`warden teammate: run by a team lead as \`warden teammate ${TEAMMATE_ARGS.join(" ")}\`\n`);
    return 2;
  }
  const channel = new ControlChannel({
    input: process.stdin,
    write: (line) => void process.stdout.write(`${JSON.stringify(line)}\n`),
    warn: (message) => void process.stderr.write(`warden teammate: ${message}\n`),
  });
  const stop = new AbortController();
  let assign: (value: { init: TeammateInitialize; spec: SessionSpec }) => void = () => undefined;
  const assigned = new Promise<{ init: TeammateInitialize; spec: SessionSpec }>((resolve) => {
    assign = resolve;
  });
  let started: (error?: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    started = (error) => (error ? reject(error) : resolve());
  });
  let initialized = false;
  channel.onUserMessage(() => {
    // Its work comes through the team's mailboxes, never as a user message.
    process.stderr.write("warden teammate: a user message was skipped (a teammate reads its mailbox)\n");
  });
  channel.onControlRequest(async (request) => {
    switch (request.subtype) {
      case "initialize": {
        if (initialized) throw new Error("initialize: this teammate is already initialized");
        const init = assignmentOf(request);
        const spec = childSpecOf(init.session_spec);
        initialized = true;
        assign({ init, spec });
        // Answered once the session is built: a set-up failure is the lead's to hear.
        await ready;
        return {};
      }
      case "interrupt":
        stop.abort("The team lead stopped this teammate.");
        return {};
      default:
        throw new Error(`warden teammate: unsupported control request ${JSON.stringify(request.subtype)}`);
    }
  });
  void channel.closed.then(() => stop.abort("the lead closed its end"));
  const first = await Promise.race([assigned, channel.closed.then(() => undefined)]);
  if (!first) {
    process.stderr.write("warden teammate: the lead closed stdin before its initialize request\n");
    return 2;
  }
  try {
    return await runAssigned(channel, first.init, first.spec, stop, started);
  } catch (error) {
    started(error as Error);
    throw error;
  }
}

async function runAssigned(
  channel: ControlChannel,
  init: TeammateInitialize,
  config: SessionSpec,
  stop: AbortController,
  started: (error?: Error) => void,
): Promise<number> {
  /** Spending goes to the lead's ledger too: the lead's cost covers its team. */
  class ReportingLedger extends UsageLedger {
    override add(info: ModelInfo, usage: Usage | undefined): void {
      super.add(info, usage);
      if (usage) channel.write({ type: "system", subtype: TEAMMATE_USAGE, model_info: info, usage });
    }
  }
  const { planSession } = await import("../session/plan.js");
  const { startSession } = await import("../session/start.js");
  const { runTeammate } = await import("../../loop/subagent/teammate.js");
  const warn = (message: string) => void process.stderr.write(`warden: warning: ${message}\n`);
  const plan = await planSession(config, { warn, ownsProcess: true });
  const built = await startSession(plan, {
    askHandler: createHeadlessAskHandler(),
    isNonInteractive: true,
    warn,
    listenForSessions: false,
    beforeCreate: () => init.permission_context,
  });
  started();
  const { session } = built;
  const { lead, teammate } = init;
  const deps: SubagentDeps = {
    provider: built.provider,
    model: plan.resolved.model,
    modelLabel: plan.resolved.label,
    modelInfo: session.modelInfo,
    ledger: new ReportingLedger(),
    sessionId: lead.sessionId,
    sessionCwd: lead.sessionCwd,
    startDate: lead.startDate,
    now: () => new Date(),
    transcripts: lead.transcripts,
    loadMemory: lead.loadMemory,
    ...(lead.maxOutputTokens !== undefined ? { maxOutputTokens: lead.maxOutputTokens } : {}),
    ...(lead.contextManagement ? { contextManagement: lead.contextManagement } : {}),
  };
  // Each call's word comes from the lead (its rules, its mode as the ceiling, its ask handler).
  const canUseTool: CanUseTool = async (tool, input, context, _message, toolUseId, options) => {
    if (stop.signal.aborted) return leadGone("The team lead stopped this teammate.");
    const state = context.getAppState();
    const call: TeammateCallContext = {
      agent_id: teammate.agentId,
      permission_mode: state.toolPermissionContext.mode,
      ...(state.toolPermissionContext.planFilePath ? { plan_file_path: state.toolPermissionContext.planFilePath } : {}),
      ...(state.bashCwd ? { cwd: state.bashCwd } : {}),
      ...(options?.preToolUseDecision ? { pre_tool_use_decision: options.preToolUseDecision } : {}),
    };
    try {
      const answer = await channel.request(
        {
          subtype: "can_use_tool",
          tool_name: tool.name,
          input,
          tool_use_id: toolUseId,
          permission_suggestions: [],
          ...call,
        },
        AbortSignal.any([stop.signal, context.abortController.signal]),
      );
      return decisionOf(answer);
    } catch (error) {
      return leadGone(
        stop.signal.aborted
          ? "The team lead stopped this teammate."
          : `The team lead did not answer: ${(error as Error).message}`,
      );
    }
  };
  const request: TeammateRequest = {
    agentId: teammate.agentId,
    definition: teammate.definition,
    description: teammate.description,
    prompt: teammate.prompt,
    // The lead chose the tools; this session's pool can only narrow them (a tool it lacks is left out).
    tools: session.tools.filter((tool) => teammate.tools.includes(tool.name)),
    permissionMode: teammate.permissionMode,
    background: true,
    canUseTool,
    name: teammate.name,
    team: teammate.team,
    onStart(controller) {
      if (stop.signal.aborted) controller.abort(stop.signal.reason);
      else stop.signal.addEventListener("abort", () => controller.abort(stop.signal.reason), { once: true });
    },
  };
  // The TeammateIdle hooks are the lead's: it runs them and says whether this teammate goes idle.
  request.onIdle = async (signal) => {
    try {
      return idleAnswerOf(await channel.request({ subtype: TEAMMATE_IDLE }, AbortSignal.any([stop.signal, signal])));
    } catch (error) {
      return { errors: [`the lead did not run its TeammateIdle hooks: ${(error as Error).message}`] };
    }
  };
  if (teammate.modelSpec !== undefined) request.modelSpec = teammate.modelSpec;
  if (teammate.maxTurns !== undefined) request.maxTurns = teammate.maxTurns;
  if (teammate.cwd !== undefined) request.cwd = teammate.cwd;
  if (teammate.history) request.history = teammate.history;
  const own = session.toolUseContext(new AbortController());
  // Its refused calls are the lead's to list, as an in-process teammate's are.
  const parent = {
    ...own,
    options: {
      ...own.options,
      reportDenial: (denial: Parameters<NonNullable<typeof own.options.reportDenial>>[0]) =>
        channel.write({ type: "system", subtype: PERMISSION_DENIAL, denial }),
    },
  };
  try {
    await runTeammate(deps, request, parent, (state) =>
      channel.write({ type: "system", subtype: TEAMMATE_STATE, state }),
    );
  } finally {
    await built.close();
    // Nothing more is read: the lead's end must not keep this process alive.
    process.stdin.destroy();
  }
  return 0;
}

/** The lead's answer to a teammate_idle request; fields of the wrong kind count as absent. */
function idleAnswerOf(answer: JsonObject): TeammateIdleAnswer {
  const errors = Array.isArray(answer.errors) ? answer.errors.filter((e): e is string => typeof e === "string") : [];
  return {
    errors,
    ...(typeof answer.continue_with === "string" && { continueWith: answer.continue_with }),
    ...(typeof answer.stop === "string" && { stop: answer.stop }),
  };
}
