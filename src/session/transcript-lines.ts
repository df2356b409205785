// A conversation message as one transcript line, in the shape Claude Code writes its own sessions
// (uuid, parentUuid, sessionId, cwd, version, gitBranch, timestamp, type "user" | "assistant", and
// the API's message with id, model and usage), so that tools people run on Claude Code's
// `projects/<project>/<session>.jsonl` files (usage reports, session browsers) read Warden's too:
// point CLAUDE_CONFIG_DIR at Warden's home. Reading back accepts these lines and the `message`
// entries of transcripts written before (format 1).
import { randomUUID } from "node:crypto";
import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  StopReason,
  Usage,
  UserContentBlock,
  UserMessage,
} from "../messages/types.js";

/** What every message line of one transcript shares. */
export interface LineContext {
  sessionId: string;
  cwd: string;
  version: string;
  gitBranch: string;
  /** Set for a subagent's own transcript (a sidechain of the session's conversation). */
  agentId?: string;
}

interface LineBase {
  parentUuid: string | null;
  isSidechain: boolean;
  userType: "external";
  cwd: string;
  sessionId: string;
  version: string;
  gitBranch: string;
  agentId?: string;
  uuid: string;
  timestamp: string;
}

export interface UserLine extends LineBase {
  type: "user";
  message: { role: "user"; content: UserContentBlock[] };
  /** A message the harness wrote (a reminder), not the human: Claude Code's own flag. */
  isMeta?: boolean;
  /** Which attachment kind wrote it (Warden's; readers that do not know it ignore it). */
  attachmentKind?: string;
}

export interface AssistantLine extends LineBase {
  type: "assistant";
  /** Claude Code's API request id; with message.id, what usage readers de-duplicate on. */
  requestId: string;
  message: {
    id: string;
    type: "message";
    role: "assistant";
    model: string;
    content: AssistantContentBlock[];
    stop_reason: StopReason | null;
    stop_sequence: null;
    /** Left out only when the provider reported none (a turn cut short). */
    usage?: Usage;
  };
}

export type MessageLine = UserLine | AssistantLine;

/**
 * The ids (message.id, requestId) of each answer read back from a transcript line: a fork writes the
 * conversation it continues again under the same ids, so readers that add up usage (ccusage count
 * each id pair once) count each answer once. Kept beside the message, never in it: a message is
 * what the model is sent.
 */
const recordedIds = new WeakMap<Message, { id: string; requestId: string }>();

export function messageLine(
  message: Message,
  context: LineContext,
  parentUuid: string | null,
  timestamp: string,
): MessageLine {
  const base: LineBase = {
    parentUuid,
    isSidechain: context.agentId !== undefined,
    userType: "external",
    cwd: context.cwd,
    sessionId: context.sessionId,
    version: context.version,
    gitBranch: context.gitBranch,
    ...(context.agentId !== undefined && { agentId: context.agentId }),
    uuid: randomUUID(),
    timestamp,
  };
  if (message.role === "user") {
    return {
      ...base,
      type: "user",
      message: { role: "user", content: message.content },
      ...(message.isMeta && { isMeta: true }),
      ...(message.attachment !== undefined && { attachmentKind: message.attachment }),
    };
  }
  // The provider's ids are not kept on the message: fresh ones still let readers de-duplicate, and
  // a message read back from a transcript keeps the ones it had there (a fork's copy is the same answer).
  const fresh = randomUUID().replace(/-/g, "");
  const recorded = recordedIds.get(message);
  return {
    ...base,
    type: "assistant",
    requestId: recorded?.requestId ?? `req_${fresh}`,
    message: {
      id: recorded?.id ?? `msg_${fresh}`,
      type: "message",
      role: "assistant",
      model: message.model ?? "unknown",
      content: message.content,
      stop_reason: message.stopReason ?? null,
      stop_sequence: null,
      ...(message.usage && { usage: message.usage }),
    },
  };
}

/** The conversation message a line holds: a Claude Code shaped line, or a format-1 `message` entry; else undefined. */
export function messageFromLine(entry: Record<string, unknown>): Message | undefined {
  if (entry.type === "message") return isMessage(entry.message) ? entry.message : undefined;
  if (entry.type !== "user" && entry.type !== "assistant") return undefined;
  const raw = entry.message as Record<string, unknown> | undefined;
  if (!isMessage(raw) || raw.role !== entry.type) return undefined;
  if (raw.role === "user") {
    const user: UserMessage = { role: "user", content: raw.content as UserContentBlock[] };
    if (entry.isMeta === true) user.isMeta = true;
    if (typeof entry.attachmentKind === "string") user.attachment = entry.attachmentKind;
    return user;
  }
  const wire = raw as unknown as Partial<AssistantLine["message"]>;
  const assistant: AssistantMessage = { role: "assistant", content: raw.content as AssistantContentBlock[] };
  if (typeof wire.model === "string" && wire.model !== "unknown") assistant.model = wire.model;
  if (typeof wire.stop_reason === "string") assistant.stopReason = wire.stop_reason;
  if (wire.usage && typeof wire.usage.input_tokens === "number") assistant.usage = wire.usage;
  if (typeof wire.id === "string" && typeof entry.requestId === "string") {
    recordedIds.set(assistant, { id: wire.id, requestId: entry.requestId });
  }
  return assistant;
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== "object" || value === null) return false;
  const m = value as { role?: unknown; content?: unknown };
  return (m.role === "user" || m.role === "assistant") && Array.isArray(m.content);
}
