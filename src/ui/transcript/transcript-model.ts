// What the screen shows of a session, built from the loop's events: finished items (written once,
// above everything, as a terminal scrolls) and the live part (text still streaming, tool calls
// still running with their progress). Plain state with a change signal, so the React side only
// renders it and tests can feed it events.

import type { QueryEvent } from "../../loop/events.js";
import { INTERRUPTED_BY_USER, INTERRUPTED_DURING_TOOLS } from "../../loop/query.js";
import { STOP_HOOK_FEEDBACK, STOP_HOOK_FEEDBACK_PREFIX } from "../../loop/session-hooks.js";
import type { Message, ToolResultBlock, ToolUseBlock } from "../../messages/types.js";
import type { TaskListItem, TaskListSnapshot } from "../../tool/task-list.js";
import type { AnyTool } from "../../tool/types.js";
import { ATTACHED_PREFIX, NOT_ATTACHED_PREFIX } from "../input/file-mentions.js";
import { SubagentActivity, subagentDoneLine } from "./subagent-activity.js";
import {
  checklistOf,
  type EditPreview,
  editOf,
  oneLine,
  type ResultSummary,
  summarizeResult,
  toolCallSummary,
} from "./tool-summary.js";

export type TranscriptItem =
  | { id: number; kind: "user"; text: string }
  | { id: number; kind: "assistant"; text: string }
  | { id: number; kind: "thinking"; text: string }
  | {
      id: number;
      kind: "tool";
      summary: string;
      result: ResultSummary;
      edit?: EditPreview;
    }
  | { id: number; kind: "notice"; text: string; tone: "info" | "warning" | "error" }
  /** A plan the person approved (ExitPlanMode), as markdown. */
  | { id: number; kind: "plan"; text: string };

export interface RunningTool {
  use: ToolUseBlock;
  summary: string;
  startedAt: number;
  /** Last lines of output and elapsed time, for a long Bash command. */
  progress?: { output: string; elapsedMs: number; totalLines: number };
  /** A tool's own account of how far it is (an MCP tool's progress notifications), one line. */
  status?: string;
}

/** The shortest time between two redraws the transcript asks for. */
const FRAME_MS = 32;

export class TranscriptModel {
  readonly items: TranscriptItem[] = [];
  streamingText = "";
  streamingThinking = "";
  readonly running = new Map<string, RunningTool>();
  /** Results that came before the message holding their call (calls run while the model streams). */
  private readonly finishedEarly = new Map<string, { toolUse: ToolUseBlock; result: ToolResultBlock }>();
  todo: TaskListSnapshot | undefined;
  /** Subagents' own calls, shown under their Agent call (or on their own while in the background). */
  readonly subagents: SubagentActivity;
  /** Agent calls' lines by id, to name a background agent after its call has finished. */
  private readonly agentSummaries = new Map<string, string>();
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private lastNotifiedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly toolsFor: () => readonly AnyTool[],
    private readonly cwd: string,
  ) {
    this.subagents = new SubagentActivity((name) => this.tool(name), cwd);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  addUser(text: string): void {
    this.push({ kind: "user", text });
  }

  addNotice(text: string, tone: "info" | "warning" | "error" = "info"): void {
    this.push({ kind: "notice", text, tone });
  }

  addPlan(text: string): void {
    this.push({ kind: "plan", text });
  }

  /** A call the person made (an `@file` attached with Read), summarised as the model's calls are. */
  addToolCall(toolUse: ToolUseBlock, result: ToolResultBlock): void {
    const tool = this.tool(toolUse.name);
    this.push({
      kind: "tool",
      summary: toolCallSummary(tool, toolUse, this.cwd),
      result: summarizeResult(tool, toolUse, result),
    });
  }

  /** A `!command` the person ran: its output is shown (the person asked to see it), up to 20 lines. */
  addShellResult(toolUse: ToolUseBlock, result: ToolResultBlock): void {
    const tool = this.tool(toolUse.name);
    this.push({
      kind: "tool",
      summary: toolCallSummary(tool, toolUse, this.cwd),
      result: summarizeResult(tool, toolUse, result, 20, false),
    });
  }

  /** Forgets everything shown (a new conversation). */
  clear(): void {
    this.items.length = 0;
    this.streamingText = "";
    this.streamingThinking = "";
    this.running.clear();
    this.finishedEarly.clear();
    this.subagents.clear();
    this.agentSummaries.clear();
    this.todo = undefined;
    this.changed();
  }

  /**
   * An event of a subagent's loop, for the Agent call `parentToolUseId`: its calls appear under
   * that call as they run; a background agent's end is written as a line of its own.
   */
  applySubagent(parentToolUseId: string, event: QueryEvent, background: boolean): void {
    const ended = this.subagents.apply(parentToolUseId, event, background);
    const label = this.agentSummaries.get(parentToolUseId);
    if (label) this.subagents.label(parentToolUseId, label);
    if (ended && background) {
      const progress = this.subagents.forget(parentToolUseId);
      const failed = event.type === "terminal" && event.reason !== "completed";
      if (progress)
        this.push({
          kind: "tool",
          summary: `${progress.label ?? "Agent"} · in the background`,
          result: { lines: [subagentDoneLine(progress, failed)], hidden: 0, isError: failed },
        });
    }
    this.changed();
  }

  /** An earlier conversation (a resumed session) shown as it went, with its task list as it stood. */
  showResumed(messages: readonly Message[], taskList: TaskListSnapshot | undefined): void {
    this.showHistory(messages);
    if (taskList && taskList.items.length > 0) this.todo = taskList;
    this.changed();
  }

  /** An earlier conversation (a resumed session) shown as it went: prompts, answers, tool calls. */
  showHistory(messages: readonly Message[]): void {
    const results = new Map<string, ToolResultBlock>();
    for (const message of messages) {
      if (message.role !== "user") continue;
      for (const block of message.content) if (block.type === "tool_result") results.set(block.tool_use_id, block);
    }
    for (const message of messages) {
      if (message.role === "user" && message.attachment === "compact_summary") {
        // The summary is written for the model: the person sees that a compaction happened, not a prompt.
        this.push({
          kind: "notice",
          text: "(earlier messages were compacted into a summary for the model)",
          tone: "info",
        });
        continue;
      }
      // What the harness wrote for the model (reminders, state put back after a compaction).
      if (message.role === "user" && message.isMeta) continue;
      // Files attached with `@path`: their Read is not something the person typed.
      const first = message.content[0];
      if (
        message.role === "user" &&
        first?.type === "text" &&
        (first.text.startsWith(ATTACHED_PREFIX) || first.text.startsWith(NOT_ATTACHED_PREFIX))
      ) {
        continue;
      }
      for (const block of message.content) {
        if (block.type === "text") {
          if (message.role === "user" && block.text.startsWith("<system-reminder>")) continue;
          if (message.role === "user" && block.text.startsWith(STOP_HOOK_FEEDBACK_PREFIX)) {
            this.push({ kind: "notice", text: block.text, tone: "info" });
            continue;
          }
          if (
            message.role === "user" &&
            (block.text === INTERRUPTED_BY_USER || block.text === INTERRUPTED_DURING_TOOLS)
          ) {
            this.push({ kind: "notice", text: INTERRUPTED_BY_USER, tone: "warning" });
            continue;
          }
          this.push({ kind: message.role === "user" ? "user" : "assistant", text: block.text });
        } else if (block.type === "tool_use") {
          const tool = this.tool(block.name);
          const result = results.get(block.id);
          const summary = result
            ? summarizeResult(tool, block, result)
            : { lines: ["(no result)"], hidden: 0, isError: true };
          // An edit reads as it did live: its line counts and diff, not the text written for the model.
          const edit = summary.isError ? undefined : editOf(block.input, "new");
          this.push({
            kind: "tool",
            summary: toolCallSummary(tool, block, this.cwd),
            result: summary,
            ...(edit ? { edit } : {}),
          });
        }
      }
    }
  }

  /**
   * A running call's clock starts again now: it counted while the call waited for the person to
   * answer its permission question, and its elapsed time should say how long the tool has run.
   */
  restartClock(toolUseId: string): void {
    const running = this.running.get(toolUseId);
    if (running) running.startedAt = Date.now();
  }

  apply(event: QueryEvent): void {
    switch (event.type) {
      case "text_delta":
        this.streamingText += event.text;
        break;
      case "thinking_delta":
        this.streamingThinking += event.thinking;
        break;
      case "stream_reset":
        this.streamingText = "";
        this.streamingThinking = "";
        // The response they belonged to was abandoned with them.
        this.finishedEarly.clear();
        break;
      case "assistant":
        this.streamingText = "";
        this.streamingThinking = "";
        for (const block of event.message.content) {
          if (block.type === "thinking" && block.thinking.trim()) this.push({ kind: "thinking", text: block.thinking });
          else if (block.type === "text" && block.text.trim()) this.push({ kind: "assistant", text: block.text });
          else if (block.type === "tool_use") {
            // A call that finished while the model still wrote (a read-only call runs at once)
            // is shown here, after the text before it, not when its result came.
            const finished = this.finishedEarly.get(block.id);
            this.finishedEarly.delete(block.id);
            const summary = toolCallSummary(this.tool(block.name), block, this.cwd);
            if (block.name === "Agent") this.agentSummaries.set(block.id, summary);
            if (finished) this.pushResult(finished.toolUse, finished.result);
            else this.running.set(block.id, { use: block, summary, startedAt: Date.now() });
          }
        }
        break;
      case "tool_progress": {
        const running = this.running.get(event.toolUseId);
        const progress = event.progress as { output?: unknown; elapsedMs?: unknown; totalLines?: unknown } | undefined;
        if (running && typeof progress?.output === "string") {
          running.progress = {
            output: progress.output,
            elapsedMs: typeof progress.elapsedMs === "number" ? progress.elapsedMs : Date.now() - running.startedAt,
            totalLines: typeof progress.totalLines === "number" ? progress.totalLines : 0,
          };
        } else if (running) {
          const status = progressStatus(event.progress);
          if (status) running.status = status;
        }
        break;
      }
      case "tool_result":
        // Results of calls started while the response streams come before its message: they wait for it.
        if (this.running.has(event.toolUse.id)) this.pushResult(event.toolUse, event.result);
        else this.finishedEarly.set(event.toolUse.id, { toolUse: event.toolUse, result: event.result });
        break;
      case "user":
        for (const block of event.message.content) {
          // Calls cut short by ESC while the model wrote get their results here, without an event.
          if (block.type === "tool_result") {
            const running = this.running.get(block.tool_use_id);
            if (running) this.pushResult(running.use, block);
            continue;
          }
          if (block.type !== "text") continue;
          // A Stop hook sent the model back: the person sees why it goes on after its answer.
          if (event.message.attachment === STOP_HOOK_FEEDBACK)
            this.push({ kind: "notice", text: block.text, tone: "info" });
          if (block.text === INTERRUPTED_BY_USER || block.text === INTERRUPTED_DURING_TOOLS) {
            this.push({ kind: "notice", text: INTERRUPTED_BY_USER, tone: "warning" });
          }
        }
        break;
      case "todo":
        this.todo = event.list;
        break;
      case "compact_boundary":
        this.push({
          kind: "notice",
          text: `Conversation compacted (${event.trigger}): about ${event.preTokens} tokens before, ${event.postTokens} after.`,
          tone: "info",
        });
        break;
      case "notice":
        this.push({ kind: "notice", text: event.message, tone: "warning" });
        break;
      case "terminal":
        this.flushStreaming();
        if (event.error) this.push({ kind: "notice", text: `Error: ${oneLine(event.error, 300)}`, tone: "error" });
        else if (event.reason === "max_turns")
          this.push({ kind: "notice", text: "Stopped: turn limit reached.", tone: "warning" });
        else if (event.reason === "max_budget_usd")
          this.push({ kind: "notice", text: "Stopped: the session's budget is spent.", tone: "warning" });
        else if (event.reason === "hook_stopped")
          this.push({
            kind: "notice",
            text: `Stopped by a hook: ${oneLine(event.hookStopReason ?? "", 300)}`,
            tone: "warning",
          });
        break;
      default:
        break;
    }
    this.changed();
  }

  /** Text that streamed but never became a message (the stream was cut by ESC) stays visible. */
  private flushStreaming(): void {
    if (this.streamingText.trim()) this.push({ kind: "assistant", text: this.streamingText });
    this.streamingText = "";
    this.streamingThinking = "";
    // Results whose message never came (the stream was cut) are still shown.
    for (const { toolUse, result } of this.finishedEarly.values()) this.pushResult(toolUse, result);
    this.finishedEarly.clear();
    this.running.clear();
    // A foreground agent cut short with its turn shows no more calls; background ones work on.
    for (const [id, progress] of [...this.subagents.byCall]) if (!progress.background) this.subagents.forget(id);
  }

  /** A finished call: its summary and result take the running entry's place. */
  private pushResult(toolUse: ToolUseBlock, resultBlock: ToolResultBlock): void {
    const running = this.running.get(toolUse.id);
    this.running.delete(toolUse.id);
    const tool = this.tool(toolUse.name);
    // A command stopped while its output was on screen keeps that output in view (its result carries it).
    let result = summarizeResult(tool, toolUse, resultBlock, running?.progress ? 10 : 4);
    // A foreground agent's calls fold into one line once it has reported (its report is the model's).
    const agent = this.subagents.byCall.get(toolUse.id);
    if (agent && !agent.background) {
      this.subagents.forget(toolUse.id);
      agent.endedAt ??= Date.now();
      if (!result.isError) result = { lines: [subagentDoneLine(agent, false)], hidden: 0, isError: false };
    }
    // The panel follows a TodoWrite as soon as it is done, not once the turn's other calls are.
    if (!result.isError && checklistOf(toolUse)) this.todo = todoListOf(toolUse, this.todo);
    const edit = result.isError ? undefined : editOf(toolUse.input, "new");
    this.push({
      kind: "tool",
      summary: running?.summary ?? toolCallSummary(tool, toolUse, this.cwd),
      result,
      ...(edit ? { edit } : {}),
    });
  }

  private tool(name: string): AnyTool | undefined {
    return this.toolsFor().find((t) => t.name === name);
  }

  private push(item: DistributiveOmit<TranscriptItem, "id">): void {
    this.items.push({ ...item, id: this.nextId++ } as TranscriptItem);
    this.changed();
  }

  /**
   * Listeners hear at most once per frame, however many deltas and progress reports arrived: a fast
   * stream redraws the whole live part at most ~30 times a second, and a key typed meanwhile is
   * drawn at once (its redraw never queues behind a redraw per chunk). A change after a quiet
   * spell is shown on the next tick.
   */
  private changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const notify = () => {
      this.scheduled = false;
      this.lastNotifiedAt = performance.now();
      for (const listener of this.listeners) listener();
    };
    const wait = this.lastNotifiedAt + FRAME_MS - performance.now();
    if (wait <= 0) setImmediate(notify);
    else setTimeout(notify, wait);
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/**
 * An MCP tool's progress notification as one line: its message with how far it is ("Indexing
 * (3/10)", a percentage when the total is 100, the bare count when there is no total).
 */
export function progressStatus(progress: unknown): string | undefined {
  if (typeof progress !== "object" || progress === null) return undefined;
  const { progress: done, total, message } = progress as { progress?: unknown; total?: unknown; message?: unknown };
  if (typeof done !== "number") return undefined;
  const amount =
    typeof total === "number" && total > 0 ? (total === 100 ? `${Math.round(done)}%` : `${done}/${total}`) : `${done}`;
  const words = typeof message === "string" ? message.replace(/\s+/g, " ").trim().slice(0, 160) : "";
  return words ? `${words} (${amount})` : amount;
}

/** The list a TodoWrite call wrote, as the task panel shows it (the loop's `todo` event confirms it later). */
function todoListOf(use: ToolUseBlock, previous: TaskListSnapshot | undefined): TaskListSnapshot {
  const items = (use.input.todos as Array<{ content: string; status?: unknown; activeForm?: unknown }>).map(
    (todo): TaskListItem => ({
      content: todo.content,
      status: todo.status === "completed" || todo.status === "in_progress" ? todo.status : "pending",
      ...(typeof todo.activeForm === "string" && { activeForm: todo.activeForm }),
    }),
  );
  return { family: "TodoWrite", revision: (previous?.revision ?? 0) + 1, items };
}
