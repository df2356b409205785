// The Agent SDK's task lines in stream-json: task_started when a background command or agent is
// registered, task_progress after each of a background agent's responses, task_notification when
// a task ends (completed, failed, or stopped), with the summary the model is given. A host shows a
// tasks panel from them without asking (background_tasks answers when it does ask).

import { sessionArtifactsDir } from "../../config/paths.js";
import type { SessionEngine } from "../../loop/session.js";
import { sessionBackgroundTasks } from "../../tasks/registry.js";
import type { BackgroundTask, BackgroundTaskEvent } from "../../tool/shell-state.js";

type SystemLine = (fields: Record<string, unknown>) => void;

/** Writes the session's task lines through `system` from now on; returns the unsubscribe. */
export function reportTaskLines(session: SessionEngine, system: SystemLine): () => void {
  const registry = sessionBackgroundTasks(session, sessionArtifactsDir(session.cwd, session.sessionId));
  return registry.observe((event) => system(taskLine(event)));
}

const taskType = (task: BackgroundTask) => (task.kind === "agent" ? "local_agent" : "local_bash");

/**
 * What names the task's run and the call behind it, on every line of the task. A task here runs
 * once (nothing resumes it), so its run is named by its id and start; the fixed-width start keeps
 * the SDK's promise that a task's runs sort by string in the order they opened.
 */
function origin(task: BackgroundTask): Record<string, string> {
  return {
    run_id: `${task.id}-${task.startedAt.toString(36).padStart(10, "0")}`,
    ...(task.toolUseId !== undefined && { tool_use_id: task.toolUseId }),
  };
}

const agentType = (task: BackgroundTask) =>
  task.subagentType !== undefined ? { subagent_type: task.subagentType } : {};

export function taskLine(event: BackgroundTaskEvent): Record<string, unknown> {
  const { task } = event;
  const description = task.description ?? task.command;
  switch (event.kind) {
    case "started":
      return {
        subtype: "task_started",
        task_id: task.id,
        ...origin(task),
        description,
        ...agentType(task),
        task_type: taskType(task),
        is_backgrounded: true,
      };
    case "progress":
      return {
        subtype: "task_progress",
        task_id: task.id,
        ...origin(task),
        description,
        ...agentType(task),
        usage: {
          total_tokens: event.progress.totalTokens,
          tool_uses: event.progress.toolUses,
          duration_ms: Date.now() - task.startedAt,
        },
        ...(event.progress.lastToolName && { last_tool_name: event.progress.lastToolName }),
      };
    case "ended":
      return {
        subtype: "task_notification",
        task_id: task.id,
        ...origin(task),
        status: task.status === "killed" ? "stopped" : task.status === "running" ? "failed" : task.status,
        output_file: task.outputPath,
        summary: event.summary,
      };
  }
}
