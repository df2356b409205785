// What a resumed session takes back of its subagents (--resume, --continue), from their sidechain
// transcripts (session/sidechains.ts): the background agents' tasks, listed again in a fresh task
// registry so TaskOutput reads the output of an agent that ended in the earlier process. Teammates
// are taken up again when messaged (SendMessage, tools/agent/teammate.ts). Loaded only when the
// resumed session has sidechains.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sessionArtifactsDir } from "../../config/paths.js";
import type { AppState } from "../../tool/app-state.js";

export async function restoredAgentState(
  cwd: string,
  resumedSessionId: string,
  sessionId: string,
): Promise<Partial<AppState>> {
  const earlier = sessionArtifactsDir(cwd, resumedSessionId);
  if (!existsSync(join(earlier, "subagents"))) return {};
  const { readSidechains, restoredAgentTask } = await import("../../session/sidechains.js");
  const tasks = readSidechains(earlier).flatMap((record) => restoredAgentTask(record) ?? []);
  if (tasks.length === 0) return {};
  const { ShellTaskRegistry } = await import("../../tasks/registry.js");
  // The new process's tasks go to its own folder (another one under --fork-session); the restored
  // ones keep the files they wrote.
  const registry = new ShellTaskRegistry(join(sessionArtifactsDir(cwd, sessionId), "tasks"));
  for (const task of tasks) registry.restore(task);
  return { backgroundTasks: registry };
}
