// A team on disk, in the folder of the session that leads it (`<session>/teams/<name>/`):
// `config.json` (the team file: description, members and whether each still runs), `inboxes/`
// (./mailbox.ts), `tasks/` (the shared task list, ./task-store.ts) and `plans/` (each teammate's
// plan file). Being in the session's folder, a team is there again when the session is resumed;
// its teammates are not (they ran in the session's process), and show as inactive.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../fs/atomic-write.js";
import { withFileLockSync } from "../fs/file-lock.js";
import type { AppState } from "../tool/app-state.js";
import { TEAM_LEAD_NAME, TEAM_NAME_PATTERN, type TeamContext, type TeammateWorktree } from "../tool/team.js";
import { FileTaskStore } from "./task-store.js";

export interface TeamMemberRecord {
  name: string;
  agentId: string;
  agentType: string;
  model?: string;
  joinedAt: string;
  /** False once the member's loop ended (shut down, stopped, or its session ended). */
  active: boolean;
  /** Its sidechain transcript: a teammate whose session ended is taken up again from it when messaged. */
  transcriptPath?: string;
  /** Its own git worktree (isolation "worktree"): it goes on there when taken up again. */
  worktree?: TeammateWorktree;
}

export interface TeamFile {
  name: string;
  description?: string;
  createdAt: string;
  leadSessionId: string;
  members: TeamMemberRecord[];
}

export function teamsDir(sessionDir: string): string {
  return join(sessionDir, "teams");
}

export function teamDir(sessionDir: string, teamName: string): string {
  if (!TEAM_NAME_PATTERN.test(teamName)) throw new Error(`"${teamName}" is not a valid team name`);
  return join(teamsDir(sessionDir), teamName);
}

export function teamFilePath(dir: string): string {
  return join(dir, "config.json");
}

export function teamTaskListDir(dir: string): string {
  return join(dir, "tasks");
}

export function teammatePlanPath(dir: string, name: string): string {
  return join(dir, "plans", `${name}.md`);
}

/** The team's shared task list. */
export function teamTaskStore(dir: string): FileTaskStore {
  return new FileTaskStore(teamTaskListDir(dir));
}

function isTeamFile(value: unknown): value is TeamFile {
  if (typeof value !== "object" || value === null) return false;
  const file = value as Partial<TeamFile>;
  return typeof file.name === "string" && Array.isArray(file.members);
}

export function readTeamFile(dir: string): TeamFile | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(teamFilePath(dir), "utf8"));
    return isTeamFile(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeTeamFile(dir: string, file: TeamFile): void {
  writeFileAtomicSync(teamFilePath(dir), Buffer.from(`${JSON.stringify(file, null, 2)}\n`));
}

/** Changes the team file under its lock (members of the team may write at once). */
export function updateTeamFile(dir: string, change: (file: TeamFile) => void): TeamFile {
  return withFileLockSync(join(dir, ".lock"), () => {
    const file = readTeamFile(dir);
    if (!file) throw new Error(`there is no team file in ${dir}`);
    change(file);
    writeTeamFile(dir, file);
    return file;
  });
}

/** Writes a new team file with the lead as its first member; throws when the team exists. */
export function createTeamFile(
  sessionDir: string,
  fields: { name: string; description?: string; leadSessionId: string; leadAgentType: string; now: Date },
): TeamContext {
  const dir = teamDir(sessionDir, fields.name);
  if (existsSync(teamFilePath(dir))) throw new Error(`a team named "${fields.name}" already exists`);
  const file: TeamFile = {
    name: fields.name,
    createdAt: fields.now.toISOString(),
    leadSessionId: fields.leadSessionId,
    members: [
      {
        name: TEAM_LEAD_NAME,
        agentId: fields.leadSessionId,
        agentType: fields.leadAgentType,
        joinedAt: fields.now.toISOString(),
        active: true,
      },
    ],
  };
  if (fields.description !== undefined) file.description = fields.description;
  withFileLockSync(join(dir, ".lock"), () => writeTeamFile(dir, file));
  return { teamName: fields.name, memberName: TEAM_LEAD_NAME, isLead: true, dir };
}

/** Adds a member, or marks a returning one (same name) active again. */
export function addTeamMember(dir: string, member: TeamMemberRecord): void {
  updateTeamFile(dir, (file) => {
    file.members = [...file.members.filter((m) => m.name !== member.name), member];
  });
}

export function setMemberActive(dir: string, name: string, active: boolean): void {
  if (!readTeamFile(dir)) return;
  updateTeamFile(dir, (file) => {
    for (const member of file.members) if (member.name === name) member.active = active;
  });
}

/** Removes the team's folder: team file, mailboxes, task list and plans. */
export function deleteTeamFiles(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The team a session leads, found in its folder (a resumed session takes up its team again). A
 * session leads at most one team at a time; the newest team file wins if there were more.
 */
export function findLedTeam(sessionDir: string): TeamContext | undefined {
  let names: string[];
  try {
    names = readdirSync(teamsDir(sessionDir));
  } catch {
    return undefined;
  }
  let found: { context: TeamContext; createdAt: string } | undefined;
  for (const name of names) {
    if (!TEAM_NAME_PATTERN.test(name)) continue;
    const dir = join(teamsDir(sessionDir), name);
    const file = readTeamFile(dir);
    if (!file || (found && found.createdAt >= file.createdAt)) continue;
    found = {
      context: { teamName: file.name, memberName: TEAM_LEAD_NAME, isLead: true, dir },
      createdAt: file.createdAt,
    };
  }
  return found?.context;
}

/**
 * Marks every teammate inactive: on resume, none of them runs any more (they lived in the
 * session's process).
 */
export function markTeammatesInactive(dir: string): void {
  if (!readTeamFile(dir)) return;
  updateTeamFile(dir, (file) => {
    for (const member of file.members) if (member.name !== TEAM_LEAD_NAME) member.active = false;
  });
}

/**
 * The AppState that gives a resumed session its team back: the lead's place in it and the team's
 * task list. Its teammates ran in the ended process: the team file marks them inactive.
 */
export function restoredTeamState(sessionDir: string): Partial<AppState> {
  const team = findLedTeam(sessionDir);
  if (!team) return {};
  markTeammatesInactive(team.dir);
  return { team, taskStore: teamTaskStore(team.dir) };
}
