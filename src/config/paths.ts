import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Warden's user folder: settings, transcripts and per-session artifacts. `WARDEN_HOME` moves it
 * (tests point it at a temp dir so they never touch the real one).
 */
export function wardenHome(): string {
  return process.env.WARDEN_HOME ? resolve(process.env.WARDEN_HOME) : join(homedir(), ".warden");
}

/** The user's own Warden settings: "don't ask again" rules saved for every project, trusted folders. */
export function userSettingsPath(): string {
  return join(wardenHome(), "settings.json");
}

/** The user's home as Warden sees it (for `~` in rules and settings); follows HOME. */
export function userHome(): string {
  return process.env.HOME ?? homedir();
}

/** `/work/my app` → `-work-my-app`: one folder per project, readable and collision-resistant enough. */
export function projectSlug(cwd: string): string {
  return resolve(cwd).replace(/[^A-Za-z0-9]/g, "-");
}

export function projectDataDir(cwd: string): string {
  return join(wardenHome(), "projects", projectSlug(cwd));
}

export function transcriptPath(cwd: string, sessionId: string): string {
  return join(projectDataDir(cwd), `${sessionId}.jsonl`);
}

/** Artifacts of one session: tool-results/, file-history/, background task output. */
export function sessionArtifactsDir(cwd: string, sessionId: string): string {
  return join(projectDataDir(cwd), sessionId);
}

/** The session's plan file (plan mode writes the plan there; src/permissions/plan-mode.ts). */
export function planFilePathIn(sessionDir: string): string {
  return join(sessionDir, "plan.md");
}
