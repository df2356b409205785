// An idle stream-json session takes a turn of its own when something arrives for the model, as the
// interactive UI does (src/loop/wake.ts): a background command or agent ends, a scheduled prompt
// falls due. The SDK's host sees that turn as any other: assistant lines, then its own result line.
// Once the host has closed stdin, the session still waits for its background agents (their work
// would be lost otherwise) and takes the turn their ends call for, then ends; background commands
// (a dev server, a watcher) are not waited for, and are stopped when the session ends.
import type { StreamState } from "./stream-state.js";

/** True while a background agent of the session works. */
export function agentsRunning(state: StreamState): boolean {
  const tasks = state.built.session.getAppState().backgroundTasks?.list() ?? [];
  return tasks.some((task) => task.kind === "agent" && task.status === "running");
}

/**
 * Resolves when a turn becomes due or a background task ends (an agent stopped by request ends
 * without a notice, and the session must not wait for it forever). `stop()` drops the listeners.
 */
export function nextWakeOrTaskEnd(state: StreamState): { arrived: Promise<void>; stop: () => void } {
  const { session } = state.built;
  const offs: Array<() => void> = [];
  const arrived = new Promise<void>((resolve) => {
    offs.push(session.onWake(resolve));
    const tasks = session.getAppState().backgroundTasks;
    if (tasks) offs.push(tasks.observe((event) => event.kind === "ended" && resolve()));
  });
  return {
    arrived,
    stop: () => {
      for (const off of offs) off();
    },
  };
}
