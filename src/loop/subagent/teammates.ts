// The session's teammates (TeamRuntime): which run, in which state, and how to stop them. Small and
// loaded with the session; the runner (./teammate.ts, or the CLI's child process) loads on the first spawn.
import type { TeammateStatus } from "../../tool/team.js";
import type { TeammateRequest, TeamRuntime, ToolUseContext } from "../../tool/types.js";
import type { SubagentDeps } from "./deps.js";

interface Entry extends TeammateStatus {
  teamName: string;
  controller?: AbortController;
  done: Promise<void>;
}

export class TeammateRegistry implements TeamRuntime {
  private readonly entries: Entry[] = [];
  private listeners: Array<() => void> = [];

  constructor(private readonly deps: () => SubagentDeps) {}

  async spawn(request: TeammateRequest, parent: ToolUseContext): Promise<void> {
    const running = this.entries.find(
      (e) => e.teamName === request.team.teamName && e.name === request.name && e.state !== "stopped",
    );
    if (running) throw new Error(`a teammate named "${request.name}" is already running in this team`);
    const entry: Entry = {
      name: request.name,
      agentId: request.agentId,
      teamName: request.team.teamName,
      state: "working",
      done: Promise.resolve(),
    };
    this.entries.push(entry);
    let started!: () => void;
    const running$ = new Promise<void>((resolve) => {
      started = resolve;
    });
    request.onStart = (controller) => {
      entry.controller = controller;
      started();
    };
    const deps = this.deps();
    const runTeammate = deps.teammateRunner ?? (await import("./teammate.js")).runTeammate;
    entry.done = runTeammate(deps, request, parent, (state) => this.setState(entry, state))
      .catch(() => undefined)
      .then(() => request.onEnd?.())
      .catch(() => undefined)
      .finally(() => {
        this.setState(entry, "stopped");
        started();
      });
    this.changedNow();
    await running$;
  }

  members(teamName: string): TeammateStatus[] {
    return this.entries
      .filter((e) => e.teamName === teamName)
      .map(({ name, agentId, state }) => ({ name, agentId, state }));
  }

  async stop(teamName?: string, names?: readonly string[]): Promise<void> {
    const chosen = this.entries.filter(
      (e) =>
        e.state !== "stopped" &&
        (teamName === undefined || e.teamName === teamName) &&
        (names === undefined || names.includes(e.name)),
    );
    for (const entry of chosen) entry.controller?.abort("stopped");
    await Promise.all(chosen.map((entry) => entry.done));
  }

  changed(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        signal?.removeEventListener("abort", done);
        this.listeners = this.listeners.filter((l) => l !== done);
        resolve();
      };
      this.listeners.push(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private setState(entry: Entry, state: TeammateStatus["state"]): void {
    if (entry.state === state || entry.state === "stopped") return;
    entry.state = state;
    this.changedNow();
  }

  private changedNow(): void {
    const waiting = this.listeners;
    this.listeners = [];
    for (const listener of waiting) listener();
  }
}
