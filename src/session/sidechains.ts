// Reading a session's sidechains back (--resume, --continue): each subagent's transcript, beside
// the session's artifacts in `subagents/<agentId>.jsonl`, as loop/subagent/child.ts writes it: an
// `agent` entry saying who it is (type, description, name, team, background task), its messages
// in Claude Code's lines (isSidechain: true), and an `agent_result` entry when it ended. What a
// resumed session takes back from them: the background agents' tasks, listed again for TaskOutput,
// and a teammate's conversation, to go on from when it is taken up again.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../messages/types.js";
import type { BackgroundTask } from "../tool/shell-state.js";
import { loadTranscriptFile } from "./transcript-reader.js";

export interface SidechainRecord {
  agentId: string;
  path: string;
  agentType: string;
  description: string;
  background: boolean;
  fork: boolean;
  name?: string;
  teamName?: string;
  model?: string;
  /** A background agent's task. */
  task?: { id: string; outputPath: string };
  /** Its `agent_result` entry: how it ended (absent when the process died while it ran). */
  result?: { reason: string; text?: string; error?: string; endedAt?: number };
  /** When its first entry was written. */
  startedAt?: number;
  /** The parent's Agent call that started it. */
  parentToolUseId?: string;
}

const AGENT_ID = /^a[0-9a-f]+$/;

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function time(value: unknown): number | undefined {
  const parsed = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** The `agent` and `agent_result` entries of one sidechain; undefined when it has no `agent` entry. */
export function readSidechainRecord(path: string, agentId: string): SidechainRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  let record: SidechainRecord | undefined;
  for (const line of text.split("\n")) {
    // Only the two entry kinds matter here; message lines are read by loadSidechainMessages.
    if (!line.includes('"type":"agent')) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (entry.type === "agent" && record === undefined) {
      const taskId = str(entry.taskId);
      const outputPath = str(entry.outputPath);
      record = {
        agentId,
        path,
        agentType: str(entry.agentType) ?? "general-purpose",
        description: str(entry.description) ?? "",
        background: entry.background === true,
        fork: entry.fork === true,
      };
      const name = str(entry.name);
      const teamName = str(entry.teamName);
      const model = str(entry.model);
      const startedAt = time(entry.timestamp);
      if (name !== undefined) record.name = name;
      if (teamName !== undefined) record.teamName = teamName;
      if (model !== undefined) record.model = model;
      if (startedAt !== undefined) record.startedAt = startedAt;
      const parentToolUseId = str(entry.parentToolUseId);
      if (parentToolUseId !== undefined) record.parentToolUseId = parentToolUseId;
      if (taskId !== undefined && outputPath !== undefined) record.task = { id: taskId, outputPath };
    } else if (entry.type === "agent_resumed" && record) {
      // Continued as a new background task: that task is the one to list again.
      const taskId = str(entry.taskId);
      const outputPath = str(entry.outputPath);
      if (taskId !== undefined && outputPath !== undefined) record.task = { id: taskId, outputPath };
      record.background ||= taskId !== undefined;
      delete record.result;
    } else if (entry.type === "agent_result" && record) {
      // A teammate taken up again writes a result at each end: the last one counts.
      record.result = { reason: str(entry.reason) ?? "unknown" };
      const resultText = str(entry.text);
      const error = str(entry.error);
      const endedAt = time(entry.timestamp);
      if (resultText !== undefined) record.result.text = resultText;
      if (error !== undefined) record.result.error = error;
      if (endedAt !== undefined) record.result.endedAt = endedAt;
    }
  }
  return record;
}

/** Every sidechain of the session whose artifacts are in `artifactsDir`, oldest first. */
export function readSidechains(artifactsDir: string): SidechainRecord[] {
  const dir = join(artifactsDir, "subagents");
  if (!existsSync(dir)) return [];
  const records: SidechainRecord[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".jsonl")) continue;
    const agentId = name.slice(0, -".jsonl".length);
    if (!AGENT_ID.test(agentId)) continue;
    const record = readSidechainRecord(join(dir, name), agentId);
    if (record) records.push(record);
  }
  return records.sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
}

/** A sidechain's conversation as its agent last had it (after its last compaction, calls paired). */
export function loadSidechainMessages(path: string): { messages: Message[]; warnings: string[] } {
  const loaded = loadTranscriptFile(path);
  return { messages: loaded.messages, warnings: loaded.warnings };
}

/**
 * A background agent's task as it stood when the earlier process ended: completed or failed by
 * its result; stopped (TaskStop, the session's end) as killed; no result at all (the process died
 * while it ran) as failed.
 */
export function restoredAgentTask(record: SidechainRecord): BackgroundTask | undefined {
  if (!record.task) return undefined;
  const reason = record.result?.reason;
  const status: BackgroundTask["status"] =
    reason === undefined
      ? "failed"
      : reason === "completed"
        ? "completed"
        : reason.startsWith("aborted")
          ? "killed"
          : "failed";
  const task: BackgroundTask = {
    id: record.task.id,
    kind: "agent",
    command: `agent ${record.agentType}: ${record.description}`,
    description: record.description,
    outputPath: record.task.outputPath,
    pid: 0,
    startedAt: record.startedAt ?? 0,
    status,
    exitCode: null,
    sandboxed: false,
  };
  const endedAt = record.result?.endedAt;
  if (endedAt !== undefined) task.endedAt = endedAt;
  return task;
}
