// The replay provider plays a scripted model from a JSONL file, one line per model turn:
//
//   {"content":[{"type":"text","text":"..."},{"type":"tool_use","id":"toolu_1","name":"Read","input":{...}}],
//    "stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}
//
// `stop_reason` is optional (tool_use when the turn calls a tool, else end_turn), so is `usage`.
// Every string of a turn has `{{cwd}}` replaced by the session's working directory, so a script can
// name files in whatever temp dir a test runs in. Two optional fields serve tests and demos:
// `"delay_ms": N` waits before the turn is streamed (abortable), and
// `"error": {"message": "...", "status"?: 529, "kind"?: "prompt_too_long"}` makes that turn fail
// as the model service would. This format is public: tests and examples of other modules rely on it.
//
// Resumed sessions: a fresh provider starts at the script's first turn, which suits a local
// `--resume` given a new script. A fleet job taken over by another worker resumes with the same
// script, which must go on where the dead worker's session stopped: with
// `WARDEN_REPLAY_CONTINUE=1` the first main-loop request skips one main turn for every assistant
// message the resumed conversation already holds (the turns the script has already answered).
//
// Subagents: a line with `"agent": "KEY"` is a turn of a subagent, not of the main loop. Each key
// has its own queue, played in file order. A subagent's request takes the next turn of the first
// key that matches it, tried in this order: the agent's name (the Agent call's `name`), its
// description (the call's `description`), its type (`Explore`, `general-purpose`, `fork` ...).
// Lines without "agent" answer the main loop only. So two agents of the same type that must get
// different turns are told apart by their descriptions:
//
//   {"content":[{"type":"tool_use","id":"t1","name":"Agent","input":{"description":"find tests","prompt":"...","subagent_type":"Explore"}}]}
//   {"agent":"find tests","content":[{"type":"tool_use","id":"e1","name":"Grep","input":{"pattern":"describe\\("}}]}
//   {"agent":"find tests","content":[{"type":"text","text":"The tests are in test/."}]}
//   {"content":[{"type":"text","text":"Done."}]}
//
// A subagent run as a fleet job (Agent `isolation: "remote"`) is a session of its own on a worker:
// the worker sets `WARDEN_REPLAY_AS_AGENT` (JSON: agentId, agentType, description, name) and that
// session's main loop takes the agent's lines, so one script scripts both sides.
//
// Side queries: a line with `"side": "TOOL"` answers a tool's one-shot question to a small model
// (src/loop/side-query.ts: WebFetch reading a page for its prompt, say), never a turn of the main
// loop or of an agent. Each tool name has its own queue, played in file order, and a side query
// with none left fails the tool call with a message naming the script. The line's text is the
// answer; the side query's prompt is not checked. Between the main loop's turns:
//
//   {"content":[{"type":"tool_use","id":"f1","name":"WebFetch","input":{"url":"https://example.com","prompt":"What is it?"}}]}
//   {"side":"WebFetch","content":[{"type":"text","text":"An example page."}],"usage":{"input_tokens":900,"output_tokens":6}}
//   {"content":[{"type":"text","text":"It is an example page."}]}
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AssistantContentBlock, StopReason, Usage } from "../messages/types.js";
import { sleepUnlessAborted } from "./abortable-sleep.js";
import { abortedError } from "./errors.js";
import { type ModelRequest, type Provider, ProviderError, type ProviderEvent, type RequestAgent } from "./types.js";

interface ReplayError {
  message: string;
  status?: number;
  kind?: ProviderError["kind"];
}

export interface ReplayTurn {
  content: AssistantContentBlock[];
  stop_reason?: StopReason;
  usage?: Usage;
  delay_ms?: number;
  error?: ReplayError;
  /** The subagent this turn answers (see the header); absent: the main loop. */
  agent?: string;
  /** The tool whose side query this line answers (see the header). */
  side?: string;
}

const STOP_REASONS: ReadonlySet<string> = new Set([
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "refusal",
  "pause_turn",
]);
const ERROR_KINDS: ReadonlySet<string> = new Set(["http", "network", "stream_cut", "prompt_too_long", "script"]);

function scriptError(message: string): ProviderError {
  return new ProviderError(message, undefined, false, "script");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Replaces `{{cwd}}` in every string of a parsed JSON value. */
function substituteCwd(value: unknown, cwd: string): unknown {
  if (typeof value === "string") return value.split("{{cwd}}").join(cwd);
  if (Array.isArray(value)) return value.map((v) => substituteCwd(v, cwd));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = substituteCwd(v, cwd);
    return out;
  }
  return value;
}

function checkBlock(block: unknown, where: string): AssistantContentBlock {
  if (!isRecord(block)) throw scriptError(`${where}: each content block must be an object`);
  switch (block.type) {
    case "text":
      if (typeof block.text !== "string") throw scriptError(`${where}: a text block needs a string "text"`);
      return { type: "text", text: block.text };
    case "thinking":
      if (typeof block.thinking !== "string") throw scriptError(`${where}: a thinking block needs a string "thinking"`);
      return { type: "thinking", thinking: block.thinking };
    case "tool_use":
      if (typeof block.id !== "string" || block.id === "")
        throw scriptError(`${where}: a tool_use block needs an "id"`);
      if (typeof block.name !== "string" || block.name === "")
        throw scriptError(`${where}: a tool_use block needs a "name"`);
      if (!isRecord(block.input)) throw scriptError(`${where}: tool_use "${block.id}" needs an object "input"`);
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    default:
      throw scriptError(
        `${where}: unknown content block type ${JSON.stringify(block.type)} (text, thinking, tool_use)`,
      );
  }
}

function checkUsage(usage: unknown, where: string): Usage {
  if (!isRecord(usage) || typeof usage.input_tokens !== "number" || typeof usage.output_tokens !== "number") {
    throw scriptError(`${where}: "usage" needs numeric input_tokens and output_tokens`);
  }
  return usage as unknown as Usage;
}

function checkError(error: unknown, where: string): ReplayError {
  if (!isRecord(error) || typeof error.message !== "string") {
    throw scriptError(`${where}: "error" needs a string "message"`);
  }
  if (error.status !== undefined && typeof error.status !== "number") {
    throw scriptError(`${where}: "error.status" must be a number`);
  }
  if (error.kind !== undefined && !(typeof error.kind === "string" && ERROR_KINDS.has(error.kind))) {
    throw scriptError(`${where}: "error.kind" must be one of ${[...ERROR_KINDS].join(", ")}`);
  }
  return error as unknown as ReplayError;
}

/** Parses and checks one script line; errors name the file and line so a broken script is easy to fix. */
export function parseReplayLine(line: string, where: string, cwd: string): ReplayTurn {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    throw scriptError(`${where}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  raw = substituteCwd(raw, cwd);
  if (!isRecord(raw)) throw scriptError(`${where}: each line must be a JSON object describing one model turn`);
  const turn: ReplayTurn = { content: [] };
  if (raw.agent !== undefined) {
    if (typeof raw.agent !== "string" || raw.agent === "")
      throw scriptError(`${where}: "agent" must be a non-empty string`);
    turn.agent = raw.agent;
  }
  if (raw.side !== undefined) {
    if (typeof raw.side !== "string" || raw.side === "")
      throw scriptError(`${where}: "side" must be a tool name (the tool whose side query this line answers)`);
    if (turn.agent !== undefined) throw scriptError(`${where}: a line answers an "agent" or a "side" query, not both`);
    turn.side = raw.side;
  }
  if (raw.error !== undefined) turn.error = checkError(raw.error, where);
  if (raw.content === undefined && turn.error) return withDelay(turn, raw, where);
  if (!Array.isArray(raw.content)) throw scriptError(`${where}: "content" must be an array of blocks`);
  turn.content = raw.content.map((b, i) => checkBlock(b, `${where}, block ${i + 1}`));
  if (raw.stop_reason !== undefined) {
    if (typeof raw.stop_reason !== "string" || !STOP_REASONS.has(raw.stop_reason)) {
      throw scriptError(`${where}: "stop_reason" must be one of ${[...STOP_REASONS].join(", ")}`);
    }
    turn.stop_reason = raw.stop_reason as StopReason;
  }
  if (raw.usage !== undefined) turn.usage = checkUsage(raw.usage, where);
  return withDelay(turn, raw, where);
}

function withDelay(turn: ReplayTurn, raw: Record<string, unknown>, where: string): ReplayTurn {
  if (raw.delay_ms === undefined) return turn;
  if (typeof raw.delay_ms !== "number" || raw.delay_ms < 0) throw scriptError(`${where}: "delay_ms" must be >= 0`);
  turn.delay_ms = raw.delay_ms;
  return turn;
}

/** Reads and checks a whole script; blank lines are allowed and skipped. */
export function loadReplayScript(file: string, cwd: string): ReplayTurn[] {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(error);
    throw scriptError(`replay script ${path}: ${reason}`);
  }
  const turns: ReplayTurn[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim() ?? "";
    if (line === "") continue;
    turns.push(parseReplayLine(line, `replay script ${path} line ${i + 1}`, cwd));
  }
  return turns;
}

/**
 * A Provider that answers each request with the next turn of a script. The script is read and
 * checked when the provider is created, so a malformed file fails before the session starts.
 */
export function createReplayProvider(file: string, opts: { cwd: string }): Provider {
  const turns = loadReplayScript(file, opts.cwd);
  const path = resolve(opts.cwd, file);
  const queues = new Map<string, ReplayTurn[]>();
  for (const turn of turns) {
    const key = turn.side !== undefined ? sideQueueKey(turn.side) : (turn.agent ?? MAIN_QUEUE);
    const queue = queues.get(key) ?? [];
    queue.push(turn);
    queues.set(key, queue);
  }
  const played = new Map<string, number>();
  let continueChecked = process.env.WARDEN_REPLAY_CONTINUE !== "1";
  // A subagent run as a fleet job (Agent isolation "remote"): its main loop is that agent's.
  const asAgent = agentFromEnv(process.env.WARDEN_REPLAY_AS_AGENT);
  /** The next turn for this request, and what to say when there is none. */
  const nextTurn = (
    agent: RequestAgent | undefined,
    side: string | undefined,
  ): { turn?: ReplayTurn; missing: string } => {
    if (side !== undefined) {
      const key = sideQueueKey(side);
      const queue = queues.get(key) ?? [];
      const index = played.get(key) ?? 0;
      if (index < queue.length) {
        played.set(key, index + 1);
        return { turn: queue[index], missing: "" };
      }
      return {
        missing: `replay script ${path} has no "side": ${JSON.stringify(side)} line left for ${side}'s side query (it has ${queue.length})`,
      };
    }
    const keys = agent ? agentKeys(agent) : [MAIN_QUEUE];
    for (const key of keys) {
      const queue = queues.get(key);
      const index = played.get(key) ?? 0;
      if (queue && index < queue.length) {
        played.set(key, index + 1);
        return { turn: queue[index], missing: "" };
      }
    }
    if (!agent) {
      const count = queues.get(MAIN_QUEUE)?.length ?? 0;
      return {
        missing: `replay script ${path} ran out: the session asked for model turn ${count + 1} but the script has only ${count}`,
      };
    }
    return {
      missing: `replay script ${path} has no turn left for subagent ${agent.agentId} (tried "agent" keys ${keys
        .map((k) => JSON.stringify(k))
        .join(", ")})`,
    };
  };
  return {
    name: "replay",
    async *stream(request: ModelRequest): AsyncGenerator<ProviderEvent> {
      if (!continueChecked && !request.agent && request.sideQuery === undefined) {
        continueChecked = true;
        const key = asAgent ? (agentKeys(asAgent).find((k) => queues.has(k)) ?? MAIN_QUEUE) : MAIN_QUEUE;
        played.set(key, request.messages.filter((m) => m.role === "assistant").length);
      }
      const { turn, missing } = nextTurn(request.agent ?? asAgent, request.sideQuery);
      if (!turn) throw scriptError(missing);
      if (turn.delay_ms) await sleepUnlessAborted(turn.delay_ms, request.signal);
      if (request.signal.aborted) throw abortedError();
      if (turn.error) {
        const { message, status, kind = "http" } = turn.error;
        throw new ProviderError(message, status, false, kind);
      }
      for (const block of turn.content) {
        if (request.signal.aborted) throw abortedError();
        if (block.type === "text") yield { type: "text_delta", text: block.text };
        else if (block.type === "thinking") yield { type: "thinking_delta", thinking: block.thinking };
        yield { type: "block", block };
      }
      if (turn.usage) yield { type: "usage", usage: turn.usage };
      const hasToolUse = turn.content.some((b) => b.type === "tool_use");
      yield { type: "stop", stopReason: turn.stop_reason ?? (hasToolUse ? "tool_use" : "end_turn") };
    },
  };
}

/** WARDEN_REPLAY_AS_AGENT: the agent (JSON: agentId, agentType, description, name) a job's main loop plays. */
function agentFromEnv(raw: string | undefined): RequestAgent | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<RequestAgent>;
    if (typeof value.agentType !== "string" || typeof value.description !== "string") return undefined;
    return {
      agentId: typeof value.agentId === "string" ? value.agentId : "",
      agentType: value.agentType,
      description: value.description,
      ...(typeof value.name === "string" ? { name: value.name } : {}),
    };
  } catch {
    throw scriptError(`WARDEN_REPLAY_AS_AGENT is not valid JSON: ${raw}`);
  }
}

/** The main loop's queue: lines without "agent" (a key no agent line can have: it is empty). */
const MAIN_QUEUE = "";

/** Side-query queues live beside the agents' under a key no agent name can collide with. */
function sideQueueKey(tool: string): string {
  return `\u0000side:${tool}`;
}

/** The keys a subagent's request is matched by, most specific first. */
function agentKeys(agent: RequestAgent): string[] {
  const keys = [agent.name, agent.description, agent.agentType, agent.agentId].filter(
    (key): key is string => key !== undefined && key !== "",
  );
  return [...new Set(keys)];
}
