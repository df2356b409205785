// Agent with `isolation: "remote"`: the subagent runs as a fleet job (src/fleet/ through
// ToolUseContextOptions.fleet) on whichever worker takes it, in a fresh clone of this repository
// at its last commit, and its result comes back as a local subagent's would. It is a SubagentHost,
// so foreground and background agents (TaskOutput, TaskStop, the notification) work unchanged.
//
// A remote session has nobody to ask: it runs headless under the child's permission mode with the
// parent's allow and deny rules, and every tool the local child would not have is denied by name,
// so it can do no more than the same agent could here without asking. Bypass mode follows the
// fleet's rule (the submitter's own settings must use it).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage } from "../../messages/types.js";
import type { FleetAccess, FleetJobOutcome, FleetJobRequest } from "../../tool/fleet.js";
import type { SubagentHost, SubagentRequest, SubagentResult, ToolUseContext } from "../../tool/types.js";
import { repositoryOf, sessionRules } from "../fleet-shared/session-job.js";

export async function remoteJobRequest(request: SubagentRequest, parent: ToolUseContext): Promise<FleetJobRequest> {
  const childTools = new Set(request.tools.map((tool) => tool.name));
  // Denied by name: what the local child would not get (Agent itself, the definition's exclusions).
  const withheld = parent.options.tools
    .filter((tool) => !childTools.has(tool.name) && tool.mcpInfo === undefined)
    .map((tool) => tool.name);
  const cwd = request.cwd ?? parent.getAppState().bashCwd ?? parent.options.cwd;
  const repo = await repositoryOf(cwd);
  const job: FleetJobRequest = {
    prompt: request.prompt,
    model: request.modelSpec ?? parent.options.model,
    permissionMode: request.permissionMode,
    ...sessionRules(parent, withheld),
    agent: {
      type: request.definition.agentType,
      description: request.description,
      ...(request.name ? { name: request.name } : {}),
    },
    origin: `agent:${request.agentId}`,
  };
  if (repo) job.repo = repo;
  if (request.definition.systemPrompt.trim() !== "") job.appendSystemPrompt = request.definition.systemPrompt;
  if (request.maxTurns !== undefined) job.maxTurns = request.maxTurns;
  return job;
}

/** The job's assistant messages as they come, for a background agent's output. */
function assistantOf(line: string): AssistantMessage | undefined {
  try {
    const event = JSON.parse(line) as { type?: string; message?: { content?: AssistantMessage["content"] } };
    if (event.type !== "assistant" || !Array.isArray(event.message?.content)) return undefined;
    return { role: "assistant", content: event.message.content };
  } catch {
    return undefined;
  }
}

function reasonOf(outcome: FleetJobOutcome): string {
  if (outcome.state === "completed") return "completed";
  if (outcome.state === "cancelled") return "aborted";
  return "remote_failed";
}

/** The patch the job made, kept beside the session's artifacts so the model can apply it. */
function savePatch(parent: ToolUseContext, agentId: string, outcome: FleetJobOutcome): string | undefined {
  if (!outcome.patch) return undefined;
  const dir = join(parent.options.sessionDir, "subagents");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${agentId}.patch`);
  writeFileSync(path, outcome.patch);
  return path;
}

/** The job's transcript as the subagent's sidechain, where a local child's would be. */
function mirrorSidechain(parent: ToolUseContext, agentId: string, outcome: FleetJobOutcome): string | undefined {
  if (outcome.transcript.length === 0) return undefined;
  const dir = join(parent.options.sessionDir, "subagents");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${agentId}.jsonl`);
  writeFileSync(path, `${outcome.transcript.join("\n")}\n`, { mode: 0o600 });
  return path;
}

export function remoteSubagentHost(fleet: FleetAccess): SubagentHost {
  return {
    async run(request, parent) {
      const startedAt = Date.now();
      const controller = new AbortController();
      request.onStart?.(controller);
      // A foreground agent stops with the call (ESC); a background one through its task (onStart).
      const parentSignal = parent.abortController.signal;
      const stop = () => controller.abort(parentSignal.reason);
      if (!request.background) {
        if (parentSignal.aborted) stop();
        else parentSignal.addEventListener("abort", stop, { once: true });
      }
      try {
        const job = await remoteJobRequest(request, parent);
        const id = await fleet.submit(job, parent.options.cwd);
        const outcome = await fleet.wait(id, controller.signal, (line) => {
          const message = assistantOf(line);
          if (message) request.onMessage?.(message);
        });
        const patchPath = savePatch(parent, request.agentId, outcome);
        const transcriptPath = mirrorSidechain(parent, request.agentId, outcome);
        const where = job.repo
          ? `a fresh clone of ${job.repo} at its last commit (uncommitted changes were not there)`
          : "an empty workspace (this folder is not a git repository)";
        const changes = outcome.diffstat
          ? `Its changes stay on the worker's clone; here they are only a patch:\n${outcome.diffstat}Apply it with: git apply ${patchPath}`
          : "It changed no files.";
        const refused = outcome.refusals?.length
          ? ` ${outcome.refusals.length} of its calls were refused: ${outcome.refusals.map((r) => `${r.tool} ${r.target} (${r.reason})`).join("; ")}.`
          : "";
        const result: SubagentResult = {
          agentId: request.agentId,
          text: `${outcome.text}\n\n[Ran as fleet job ${id}${outcome.worker ? ` on worker ${outcome.worker}` : ""} (${fleet.url}), in ${where}. ${changes}${refused}]`,
          turns: outcome.turns,
          usage: { input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens },
          reason: reasonOf(outcome),
          durationMs: Date.now() - startedAt,
        };
        if (outcome.error !== undefined) result.error = `fleet job ${id}: ${outcome.error}`;
        if (transcriptPath) result.transcriptPath = transcriptPath;
        return result;
      } finally {
        parentSignal.removeEventListener("abort", stop);
      }
    },
  };
}
