// The Tasks family's list on disk: one folder holding `meta.json` (the revision and the next id)
// and one `<id>.json` per task. A session's own list lives in its folder (`<session>/tasks/`), so it
// is there again on --resume; a team opens one shared folder, and every change is a read-modify-
// write under a lock file, so members never overwrite each other's changes. The revision is bumped
// by each change, whichever process made it: the loop compares it to notice changes it did not make.
import { mkdirSync, readdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../fs/atomic-write.js";
import { withFileLockSync } from "../fs/file-lock.js";
import type { AppState } from "../tool/app-state.js";
import {
  MAIN_TODO_LIST,
  type NewTaskFields,
  type TaskChanges,
  type TaskListSnapshot,
  type TaskListStore,
  type TaskRecord,
} from "../tool/task-list.js";
import type { ToolUseContext } from "../tool/types.js";

interface Meta {
  revision: number;
  nextId: number;
}

/** Ids are file names: only plain positive numbers, so no id can name a path elsewhere. */
const TASK_ID = /^[1-9][0-9]{0,8}$/;

export function isTaskId(id: string): boolean {
  return TASK_ID.test(id);
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

function isTaskRecord(value: unknown): value is TaskRecord {
  if (typeof value !== "object" || value === null) return false;
  const task = value as Partial<TaskRecord>;
  return (
    typeof task.id === "string" &&
    typeof task.subject === "string" &&
    typeof task.description === "string" &&
    typeof task.status === "string" &&
    Array.isArray(task.blocks) &&
    Array.isArray(task.blockedBy)
  );
}

const byNumericId = (a: TaskRecord, b: TaskRecord) => Number(a.id) - Number(b.id);

function addUnique(list: readonly string[], more: readonly string[]): string[] {
  return [...list, ...more.filter((id, i) => !list.includes(id) && more.indexOf(id) === i)];
}

export class FileTaskStore implements TaskListStore {
  private cache: { revision: number; tasks: TaskRecord[] } | undefined;

  constructor(readonly location: string) {}

  revision(): number {
    return this.readMeta().revision;
  }

  list(): TaskRecord[] {
    const revision = this.revision();
    if (this.cache?.revision === revision) return this.cache.tasks.map((t) => structuredClone(t));
    const tasks = this.readAll();
    this.cache = { revision, tasks };
    return tasks.map((t) => structuredClone(t));
  }

  get(id: string): TaskRecord | undefined {
    if (!isTaskId(id)) return undefined;
    const value = readJson(this.taskPath(id));
    return isTaskRecord(value) ? value : undefined;
  }

  create(fields: NewTaskFields): TaskRecord {
    return this.change((meta) => {
      const task: TaskRecord = {
        id: String(meta.nextId),
        subject: fields.subject,
        description: fields.description,
        status: "pending",
        blocks: [],
        blockedBy: [],
      };
      if (fields.activeForm !== undefined) task.activeForm = fields.activeForm;
      if (fields.metadata !== undefined) task.metadata = fields.metadata;
      meta.nextId++;
      this.writeTask(task);
      return task;
    });
  }

  update(id: string, changes: TaskChanges): { before: TaskRecord; after: TaskRecord } | undefined {
    return this.change(() => {
      const before = this.get(id);
      if (!before) return undefined;
      const after: TaskRecord = structuredClone(before);
      if (changes.subject !== undefined) after.subject = changes.subject;
      if (changes.description !== undefined) after.description = changes.description;
      if (changes.activeForm !== undefined) after.activeForm = changes.activeForm;
      if (changes.status !== undefined) after.status = changes.status;
      if (changes.owner !== undefined) after.owner = changes.owner;
      if (changes.metadata !== undefined) {
        const merged = { ...after.metadata };
        for (const [key, value] of Object.entries(changes.metadata)) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        after.metadata = merged;
      }
      // Both ends of a dependency are written, so either task shows it.
      const others = new Map<string, TaskRecord>();
      const other = (otherId: string): TaskRecord => {
        if (otherId === id) throw new Error(`task #${id} cannot depend on itself`);
        const found = others.get(otherId) ?? this.get(otherId);
        if (!found) throw new Error(`there is no task #${otherId}`);
        others.set(otherId, found);
        return found;
      };
      for (const blocked of changes.addBlocks ?? []) {
        const task = other(blocked);
        task.blockedBy = addUnique(task.blockedBy, [id]);
      }
      for (const blocker of changes.addBlockedBy ?? []) {
        const task = other(blocker);
        task.blocks = addUnique(task.blocks, [id]);
      }
      after.blocks = addUnique(after.blocks, changes.addBlocks ?? []);
      after.blockedBy = addUnique(after.blockedBy, changes.addBlockedBy ?? []);
      for (const task of others.values()) this.writeTask(task);
      this.writeTask(after);
      return { before, after };
    });
  }

  delete(id: string): boolean {
    return this.change(() => {
      if (!this.get(id)) return false;
      unlinkSync(this.taskPath(id));
      for (const task of this.readAll()) {
        if (!task.blocks.includes(id) && !task.blockedBy.includes(id)) continue;
        task.blocks = task.blocks.filter((other) => other !== id);
        task.blockedBy = task.blockedBy.filter((other) => other !== id);
        this.writeTask(task);
      }
      return true;
    });
  }

  /** One change under the lock; the revision is bumped after the task files are written. */
  private change<T>(section: (meta: Meta) => T): T {
    mkdirSync(this.location, { recursive: true, mode: 0o700 });
    return withFileLockSync(join(this.location, ".lock"), () => {
      const meta = this.readMeta();
      const result = section(meta);
      meta.revision++;
      writeFileAtomicSync(join(this.location, "meta.json"), Buffer.from(JSON.stringify(meta)));
      this.cache = undefined;
      return result;
    });
  }

  private readMeta(): Meta {
    const value = readJson(join(this.location, "meta.json")) as Partial<Meta> | undefined;
    const revision = typeof value?.revision === "number" ? value.revision : 0;
    const nextId = typeof value?.nextId === "number" && value.nextId >= 1 ? value.nextId : 1;
    return { revision, nextId };
  }

  private readAll(): TaskRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.location);
    } catch {
      return [];
    }
    const tasks: TaskRecord[] = [];
    for (const name of names) {
      if (!name.endsWith(".json") || !isTaskId(name.slice(0, -".json".length))) continue;
      const value = readJson(join(this.location, name));
      if (isTaskRecord(value)) tasks.push(value);
    }
    return tasks.sort(byNumericId);
  }

  private taskPath(id: string): string {
    return join(this.location, `${id}.json`);
  }

  private writeTask(task: TaskRecord): void {
    writeFileAtomicSync(this.taskPath(task.id), Buffer.from(`${JSON.stringify(task, null, 2)}\n`));
  }
}

/** The session's own list folder. */
export function sessionTaskListDir(sessionDir: string): string {
  return join(sessionDir, "tasks");
}

/** The store the Task tools use: the one in AppState (a team's), else the session's own, opened once. */
export function sessionTaskStore(context: Pick<ToolUseContext, "options" | "getAppState" | "setAppState">) {
  const current = context.getAppState().taskStore;
  if (current) return current;
  const opened = new FileTaskStore(sessionTaskListDir(context.options.sessionDir));
  context.setAppState((prev) => (prev.taskStore ? prev : { ...prev, taskStore: opened }));
  return context.getAppState().taskStore ?? opened;
}

/**
 * The AppState that brings a resumed session's list back: a TodoWrite list from the transcript's
 * last `todo` entry, or the Tasks store in the session's folder (its files are the list).
 */
export function restoredTaskListState(list: TaskListSnapshot | undefined, sessionDir: string): Partial<AppState> {
  if (!list) return {};
  if (list.family === "Tasks") return { taskStore: new FileTaskStore(sessionTaskListDir(sessionDir)) };
  const items = list.items.map((item) => ({
    content: item.content,
    status: item.status,
    activeForm: item.activeForm ?? item.content,
  }));
  return { todoLists: { [MAIN_TODO_LIST]: { items, revision: 1 } } };
}
