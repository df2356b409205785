// One transcript read for a person to look at (warden view): the whole history in order, unlike a
// resume, which keeps only what follows the last compaction. Each tool call gathers what the file
// says about it wherever the line sits: its result, the permission decisions and the hooks that ran
// for it, and the subagents it started (their own transcripts, listed as nested sessions).
import { readFileSync } from "node:fs";
import type { Message, ToolResultContent, Usage } from "../messages/types.js";
import { costOfUsage } from "../models/cost.js";
import { modelInfoFor } from "../models/resolve.js";
import { readSidechains, type SidechainRecord } from "../session/sidechains.js";
import { messageFromLine } from "../session/transcript-lines.js";

export interface DecisionView {
  behavior: string;
  decidedBy: string;
  reason: string;
  /** The settings file and line of the deciding rule, when it came from a file. */
  ruleSource?: string;
  message?: string;
  asked?: { message: string; reason: string };
}

export interface HookView {
  event: string;
  outcomes: { hook: string; kind: string; said: string }[];
}

export interface ToolCallView {
  id: string;
  name: string;
  input: Record<string, unknown>;
  result?: { text: string; isError: boolean };
  decisions: DecisionView[];
  hooks: HookView[];
  agents: SidechainRecord[];
}

export interface TurnCost {
  usage: Usage;
  /** Null when the model's price is unknown. */
  costUsd: number | null;
}

export type ViewItem =
  | { kind: "user"; text: string; meta: boolean; at?: string }
  | {
      kind: "assistant";
      texts: string[];
      thinking: string[];
      calls: ToolCallView[];
      model?: string;
      cost?: TurnCost;
      at?: string;
    }
  | { kind: "compact"; trigger: string; preTokens: number; postTokens: number; at?: string }
  | { kind: "result"; reason: string; turnCount: number; usage?: Usage; error?: string; at?: string }
  | { kind: "resume"; at?: string }
  | { kind: "hook"; hook: HookView; at?: string }
  | { kind: "decision"; toolName: string; decision: DecisionView; at?: string }
  | { kind: "entry"; type: string; at?: string };

export interface SessionView {
  sessionId: string;
  path: string;
  cwd?: string;
  model?: string;
  items: ViewItem[];
  /** Subagents and teammates (sidechains) not tied to a call of this transcript. */
  otherAgents: SidechainRecord[];
  totals: { input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number | null };
  warnings: string[];
}

type Entry = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number => (typeof value === "number" ? value : 0);

/** Entries with no place of their own on the page: state for resume, not events. */
const QUIET_TYPES = new Set(["session", "todo", "agent", "agent_resumed", "agent_result", "file-history-snapshot"]);

export function resultText(content: ToolResultContent): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

function decisionOf(entry: Entry): DecisionView {
  const decision = (entry.decision ?? {}) as { message?: unknown; decisionReason?: { type?: unknown; rule?: unknown } };
  const view: DecisionView = {
    behavior: str(entry.behavior) ?? "unknown",
    decidedBy: str(entry.decidedBy) ?? "engine",
    reason: str(entry.reason) ?? "",
  };
  const rule = decision.decisionReason?.type === "rule" ? (decision.decisionReason.rule as Entry) : undefined;
  if (rule) {
    const file = str(rule.file);
    // The file and line (the reason names the source in words already).
    if (file) view.ruleSource = `${file}${typeof rule.line === "number" ? `:${rule.line}` : ""}`;
  }
  const message = str(decision.message);
  if (message !== undefined) view.message = message;
  const asked = entry.asked as { message?: unknown; reason?: unknown } | undefined;
  if (asked && typeof asked.message === "string")
    view.asked = { message: asked.message, reason: str(asked.reason) ?? "" };
  return view;
}

/** A `permission` entry (the older shape: behavior, reason object, message). */
function legacyDecisionOf(entry: Entry): DecisionView {
  const reason = entry.reason as { type?: unknown; reason?: unknown } | undefined;
  const view: DecisionView = {
    behavior: str(entry.behavior) ?? "unknown",
    decidedBy: "engine",
    reason: str(reason?.reason) ?? str(reason?.type) ?? "",
  };
  const message = str(entry.message);
  if (message !== undefined) view.message = message;
  return view;
}

function hookOf(entry: Entry): HookView {
  const outcomes = Array.isArray(entry.outcomes) ? (entry.outcomes as Entry[]) : [];
  return {
    event: str(entry.hookEvent) ?? "hook",
    outcomes: outcomes.map((o) => ({ hook: str(o.hook) ?? "", kind: str(o.kind) ?? "", said: str(o.said) ?? "" })),
  };
}

function turnCost(provider: string, model: string | undefined, usage: Usage | undefined): TurnCost | undefined {
  if (!usage) return undefined;
  const price = model ? modelInfoFor(provider, model).price : undefined;
  return { usage, costUsd: price ? costOfUsage(price, usage) : null };
}

function userText(message: Message): string {
  return message.content
    .map((block) => (block.type === "text" ? block.text : block.type === "image" ? "[image]" : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/** Reads `path` (a session's or a sidechain's transcript); `artifactsDir` holds its subagents. */
export function readSessionView(path: string, artifactsDir: string | undefined): SessionView {
  const view = sessionViewOf(readFileSync(path, "utf8").split("\n"), path);
  if (artifactsDir !== undefined) {
    for (const agent of readSidechains(artifactsDir)) {
      const call = agent.parentToolUseId !== undefined ? view.calls.get(agent.parentToolUseId) : undefined;
      if (call) call.agents.push(agent);
      else view.otherAgents.push(agent);
    }
  }
  return view;
}

/**
 * A transcript's lines (from a file, or a fleet job's copy in Redis) as a view; `source` names
 * where they came from, and its last part is the session id until the header says otherwise.
 */
export function sessionViewOf(
  lines: readonly string[],
  source: string,
): SessionView & { calls: Map<string, ToolCallView> } {
  const calls = new Map<string, ToolCallView>();
  const view: SessionView & { calls: Map<string, ToolCallView> } = {
    sessionId: source.replace(/^.*\//, "").replace(/\.jsonl$/, ""),
    path: source,
    calls,
    items: [],
    otherAgents: [],
    totals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 },
    warnings: [],
  };
  let provider = "anthropic";
  // A call's decision and hooks may be written before its assistant line (tools start while the
  // reply still streams): those wait here for the call, found in a first look over the lines.
  const waiting = new Map<string, { decisions: DecisionView[]; hooks: HookView[] }>();
  for (const line of lines) {
    if (!line.includes('"tool_use"')) continue;
    for (const match of line.matchAll(/"type":"tool_use","id":"([^"\\]+)"/g))
      if (match[1]) waiting.set(match[1], { decisions: [], hooks: [] });
  }
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      // A running session's last line may be half written; anything else is damage worth saying.
      if (index < lines.length - 1) view.warnings.push(`line ${index + 1} is not valid JSON; skipped it`);
      return;
    }
    const at = str(entry.timestamp) ?? str(entry.at);
    const type = str(entry.type) ?? "";
    if (type === "session") {
      view.sessionId = str(entry.sessionId) ?? view.sessionId;
      const cwd = str(entry.cwd);
      if (cwd !== undefined) view.cwd = cwd;
      const model = str(entry.model);
      if (model !== undefined) {
        view.model = model;
        if (model.includes(":")) provider = model.slice(0, model.indexOf(":"));
      }
    } else if (type === "user" || type === "assistant" || type === "message") {
      const message = messageFromLine(entry);
      if (!message) {
        view.warnings.push(`line ${index + 1} holds a malformed message; skipped it`);
        return;
      }
      if (message.role === "user") {
        for (const block of message.content) {
          if (block.type !== "tool_result") continue;
          const call = calls.get(block.tool_use_id);
          if (call) call.result = { text: resultText(block.content), isError: block.is_error === true };
        }
        const said = userText(message);
        if (said !== "")
          view.items.push({ kind: "user", text: said, meta: message.isMeta === true, ...(at && { at }) });
        return;
      }
      const item: Extract<ViewItem, { kind: "assistant" }> = { kind: "assistant", texts: [], thinking: [], calls: [] };
      for (const block of message.content) {
        if (block.type === "text") item.texts.push(block.text);
        else if (block.type === "thinking") item.thinking.push(block.thinking);
        else {
          const early = waiting.get(block.id);
          const call: ToolCallView = {
            id: block.id,
            name: block.name,
            input: block.input,
            decisions: early?.decisions ?? [],
            hooks: early?.hooks ?? [],
            agents: [],
          };
          calls.set(block.id, call);
          item.calls.push(call);
        }
      }
      if (message.model !== undefined) item.model = message.model;
      const cost = turnCost(provider, message.model, message.usage);
      if (cost) {
        item.cost = cost;
        addToTotals(view, cost);
      }
      if (at) item.at = at;
      view.items.push(item);
    } else if (type === "permission_decision" || type === "permission") {
      const decision = type === "permission" ? legacyDecisionOf(entry) : decisionOf(entry);
      const id = str(entry.toolUseId) ?? str(entry.tool_use_id) ?? "";
      const call = calls.get(id);
      const early = waiting.get(id);
      if (call) call.decisions.push(decision);
      else if (early) early.decisions.push(decision);
      else
        view.items.push({
          kind: "decision",
          toolName: str(entry.toolName) ?? str(entry.tool_name) ?? "",
          decision,
          ...(at && { at }),
        });
    } else if (type === "hook_outcome") {
      const hook = hookOf(entry);
      const id = str(entry.toolUseId) ?? "";
      const call = calls.get(id);
      const early = waiting.get(id);
      if (call) call.hooks.push(hook);
      else if (early) early.hooks.push(hook);
      else view.items.push({ kind: "hook", hook, ...(at && { at }) });
    } else if (type === "compact_boundary") {
      view.items.push({
        kind: "compact",
        trigger: str(entry.trigger) ?? "auto",
        preTokens: num(entry.preTokens),
        postTokens: num(entry.postTokens),
        ...(at && { at }),
      });
    } else if (type === "result") {
      const usage = entry.usage as Usage | undefined;
      const error = str(entry.error);
      view.items.push({
        kind: "result",
        reason: str(entry.reason) ?? "",
        turnCount: num(entry.turnCount),
        ...(usage && typeof usage.input_tokens === "number" && { usage }),
        ...(error !== undefined && { error }),
        ...(at && { at }),
      });
    } else if (type === "resume") {
      view.items.push({ kind: "resume", ...(at && { at }) });
    } else if (!QUIET_TYPES.has(type)) {
      view.items.push({ kind: "entry", type, ...(at && { at }) });
    }
  });
  return view;
}

function addToTotals(view: SessionView, cost: TurnCost): void {
  const totals = view.totals;
  totals.input += cost.usage.input_tokens;
  totals.output += cost.usage.output_tokens;
  totals.cacheRead += cost.usage.cache_read_input_tokens ?? 0;
  totals.cacheWrite += cost.usage.cache_creation_input_tokens ?? 0;
  totals.costUsd = totals.costUsd === null || cost.costUsd === null ? null : totals.costUsd + cost.costUsd;
}
