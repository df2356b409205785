// The teammate's side of process mode (`warden teammate`, started by ./process-runner.ts): a
// session of its own, built as `-p` builds one from the lead's command line (same settings, MCP
// servers, hooks and tools) but with no transcript of its own, then the same teammate loop the
// lead would run in process (loop/subagent/teammate.ts), filed under the lead's session. Every
// tool call it makes is decided by the lead's authority (asked over stdout, answered on stdin), so
// the lead's rules, mode and ask handler hold as they do for an in-process teammate. Its spending
// is reported to the lead's ledger. A stop line, or stdin closing (the lead is gone), ends it.
import { createInterface } from "node:readline";
import type { SubagentDeps } from "../../loop/subagent/deps.js";
import type { Usage } from "../../messages/types.js";
import { UsageLedger } from "../../models/cost.js";
import type { ModelInfo } from "../../models/resolve.js";
import { createHeadlessAskHandler } from "../../permissions/engine/index.js";
import type { PermissionDecision } from "../../tool/permission-types.js";
import type { CanUseTool, TeammateRequest } from "../../tool/types.js";
import { parseSessionSpec, type SessionSpec } from "../session/spec.js";
import { type ChildLine, decodeLine, encodeLine, type LeadLine, type TeammateSpec } from "./protocol.js";

function send(line: ChildLine): void {
  process.stdout.write(encodeLine(line));
}

/** Spending goes to the lead's ledger too: the lead's cost covers its team. */
class ReportingLedger extends UsageLedger {
  override add(info: ModelInfo, usage: Usage | undefined): void {
    super.add(info, usage);
    if (usage) send({ type: "usage", info, usage });
  }
}

/**
 * The lead's session spec as the child's: headless, nothing to resume, no transcript of its own.
 * It crossed the process boundary as JSON: read back by the schema that made it (a spec this
 * build cannot read stops the child, rather than start a session it does not describe).
 */
function childSpec(spec: TeammateSpec, modelLabel: string): SessionSpec {
  const lead = parseSessionSpec(spec.config);
  const config: SessionSpec = {
    ...lead,
    print: true,
    outputFormat: "text",
    inputFormat: "text",
    continueLatest: false,
    forkSession: false,
    noSessionPersistence: true,
    model: modelLabel,
  };
  for (const key of ["prompt", "resume", "sessionId", "jsonSchema", "permissionPromptTool", "maxBudgetUsd"] as const)
    delete config[key];
  return parseSessionSpec(config);
}

const leadGone = (message: string): PermissionDecision => ({
  behavior: "deny",
  message,
  decisionReason: { type: "other", reason: message },
});

export async function runTeammateChild(): Promise<number> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const spec = first.done ? undefined : decodeLine<LeadLine>(first.value);
  if (spec?.type !== "spec") {
    process.stderr.write("warden teammate: the first line on stdin must be the teammate's spec\n");
    return 2;
  }
  let config: SessionSpec;
  try {
    config = childSpec(spec, spec.session.modelLabel);
  } catch (error) {
    process.stderr.write(`warden teammate: the lead's session spec cannot be read: ${(error as Error).message}\n`);
    return 2;
  }
  const stop = new AbortController();
  const pending = new Map<number, (decision: PermissionDecision) => void>();
  let nextId = 0;
  // The lead's lines from here on: its decisions, and the order to stop.
  void (async () => {
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
      const line = decodeLine<LeadLine>(step.value);
      if (line?.type === "decision") {
        pending.get(line.id)?.(line.decision);
        pending.delete(line.id);
      } else if (line?.type === "stop") stop.abort(line.reason);
    }
    stop.abort("the lead closed its end");
  })();
  stop.signal.addEventListener("abort", () => {
    for (const resolve of pending.values()) resolve(leadGone("The team lead stopped this teammate."));
    pending.clear();
  });

  const { planSession } = await import("../session/plan.js");
  const { startSession } = await import("../session/start.js");
  const { runTeammate } = await import("../../loop/subagent/teammate.js");
  const warn = (message: string) => void process.stderr.write(`warden: warning: ${message}\n`);
  const plan = await planSession(config, { warn });
  const built = await startSession(plan, {
    askHandler: createHeadlessAskHandler(),
    isNonInteractive: true,
    warn,
    listenForSessions: false,
    beforeCreate: () => spec.permissionContext,
  });
  const { session } = built;
  const deps: SubagentDeps = {
    provider: built.provider,
    model: plan.resolved.model,
    modelLabel: plan.resolved.label,
    modelInfo: session.modelInfo,
    ledger: new ReportingLedger(),
    sessionId: spec.session.sessionId,
    sessionCwd: spec.session.sessionCwd,
    startDate: spec.session.startDate,
    now: () => new Date(),
    transcripts: spec.session.transcripts,
    loadMemory: spec.session.loadMemory,
    ...(spec.session.maxOutputTokens !== undefined ? { maxOutputTokens: spec.session.maxOutputTokens } : {}),
    ...(spec.session.contextManagement ? { contextManagement: spec.session.contextManagement } : {}),
  };
  // Each call's word comes from the lead (its rules, its mode as the ceiling, its ask handler).
  const canUseTool: CanUseTool = (tool, input, context, _message, toolUseId, options) =>
    new Promise((resolve) => {
      if (stop.signal.aborted) return resolve(leadGone("The team lead stopped this teammate."));
      const id = ++nextId;
      pending.set(id, resolve);
      const state = context.getAppState();
      send({
        type: "permission",
        id,
        tool: tool.name,
        input,
        toolUseId,
        mode: state.toolPermissionContext.mode,
        ...(state.toolPermissionContext.planFilePath ? { planFilePath: state.toolPermissionContext.planFilePath } : {}),
        ...(state.bashCwd ? { cwd: state.bashCwd } : {}),
        ...(options?.preToolUseDecision ? { preToolUseDecision: options.preToolUseDecision } : {}),
      });
    });
  const { teammate } = spec;
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
      send({ type: "running" });
    },
  };
  if (teammate.modelSpec !== undefined) request.modelSpec = teammate.modelSpec;
  if (teammate.maxTurns !== undefined) request.maxTurns = teammate.maxTurns;
  if (teammate.cwd !== undefined) request.cwd = teammate.cwd;
  if (teammate.history) request.history = teammate.history;
  const parent = session.toolUseContext(new AbortController());
  try {
    await runTeammate(deps, request, parent, (state) => send({ type: "state", state }));
  } finally {
    await built.close();
    lines.close();
  }
  return 0;
}
