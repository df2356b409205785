// Durable tasks: `.warden/scheduled_tasks.json` in the project, re-armed when a session starts
// there. That file sits in the repository, where anyone could commit one, and a due task's prompt
// arrives as the user's own message: so a task is re-armed only when this machine's user created
// it. Each created task's fingerprint (id, cron, prompt, recurring) is kept in the user's own data
// folder (~/.warden/projects/<project>/scheduled-task-owners.json); a task in the file without a
// matching fingerprint is reported and left alone. Writes are locked and atomic, like settings.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { projectDataDir } from "../../config/paths.js";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { withFileLockSync } from "../../fs/file-lock.js";
import type { ScheduledTask } from "../../tool/cron.js";

export function durableTasksFile(cwd: string): string {
  return join(cwd, ".warden", "scheduled_tasks.json");
}

function ownersFile(cwd: string): string {
  return join(projectDataDir(cwd), "scheduled-task-owners.json");
}

function fingerprint(task: Pick<ScheduledTask, "id" | "cron" | "prompt" | "recurring">): string {
  const text = JSON.stringify([task.id, task.cron, task.prompt, task.recurring]);
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message})`);
  }
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, Buffer.from(`${JSON.stringify(value, null, 2)}\n`, "utf8"));
}

function isTask(value: unknown): value is ScheduledTask {
  const task = value as Partial<ScheduledTask>;
  return (
    typeof task === "object" &&
    task !== null &&
    typeof task.id === "string" &&
    typeof task.cron === "string" &&
    typeof task.prompt === "string" &&
    typeof task.recurring === "boolean" &&
    typeof task.createdAt === "string"
  );
}

function readTasks(cwd: string): ScheduledTask[] {
  const json = readJson(durableTasksFile(cwd)) as { tasks?: unknown } | undefined;
  const tasks = Array.isArray(json?.tasks) ? json.tasks : [];
  return tasks.filter(isTask).map((task) => ({ ...task, durable: true }));
}

function readOwners(cwd: string): Record<string, string> {
  const json = readJson(ownersFile(cwd));
  return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, string>) : {};
}

/** The tasks of the file this user created (to re-arm), and a warning for each one they did not. */
export function loadOwnedTasks(cwd: string): { tasks: ScheduledTask[]; warnings: string[] } {
  const owners = readOwners(cwd);
  const tasks: ScheduledTask[] = [];
  const warnings: string[] = [];
  for (const task of readTasks(cwd)) {
    if (owners[task.id] === fingerprint(task)) tasks.push(task);
    else {
      warnings.push(
        `${durableTasksFile(cwd)}: task ${task.id} was not created by you on this machine; it is not scheduled (create it again with CronCreate to run it)`,
      );
    }
  }
  return { tasks, warnings };
}

/** Adds or replaces a task in the file and records it as this user's. */
export function saveDurableTask(cwd: string, task: ScheduledTask): void {
  const file = durableTasksFile(cwd);
  mkdirSync(dirname(file), { recursive: true });
  withFileLockSync(`${file}.lock`, () => {
    const tasks = readTasks(cwd).filter((existing) => existing.id !== task.id);
    const { durable: _always, ...record } = task;
    writeJson(file, { tasks: [...tasks.map(({ durable: _d, ...rest }) => rest), record] });
  });
  const owners = ownersFile(cwd);
  mkdirSync(dirname(owners), { recursive: true });
  withFileLockSync(`${owners}.lock`, () => writeJson(owners, { ...readOwners(cwd), [task.id]: fingerprint(task) }));
}

/** Removes a task from the file (and its ownership record). */
export function removeDurableTask(cwd: string, id: string): void {
  const file = durableTasksFile(cwd);
  withFileLockSync(`${file}.lock`, () => {
    const tasks = readTasks(cwd);
    if (!tasks.some((task) => task.id === id)) return;
    writeJson(file, { tasks: tasks.filter((task) => task.id !== id).map(({ durable: _d, ...rest }) => rest) });
  });
  const owners = ownersFile(cwd);
  withFileLockSync(`${owners}.lock`, () => {
    const { [id]: _gone, ...rest } = readOwners(cwd);
    writeJson(owners, rest);
  });
}
