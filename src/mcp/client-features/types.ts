// What a session lets its MCP servers ask of it, beyond tools: questions for the user
// (elicitation), completions from the session's model (sampling), the folders it works in (roots),
// and log messages. Each is optional: a session that supplies nothing still answers every request
// with a clear refusal instead of leaving the server waiting.
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";

export type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, LoggingLevel };

/** A server's question for the user, with the server's name so the user knows who asks. */
export interface ElicitationRequest {
  server: string;
  params: ElicitRequestParams;
}

/** A server's request for a completion from the session's model. */
export interface SamplingRequest {
  server: string;
  params: CreateMessageRequestParams;
}

/** A log message a server sent, with its level. */
export interface ServerLogMessage {
  server: string;
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** Runs an approved sampling request on a model: see `createProviderSampler`. */
export type Sampler = (params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;

/** What a hook answers: its content is checked against the server's form before it is sent. */
export interface HookElicitAnswer {
  action: ElicitResult["action"];
  content?: Record<string, unknown>;
}

/** The session's Elicitation and ElicitationResult hooks (src/hooks/elicitation-hooks.ts). */
export interface ElicitationHooks {
  has(event: "Elicitation" | "ElicitationResult"): boolean;
  /** Before anybody is asked: an answer here means nobody is. */
  elicitation(
    request: ElicitationRequest,
    signal?: AbortSignal,
  ): Promise<{ answer?: HookElicitAnswer; errors: string[] }>;
  /** Before the answer goes back: an answer here replaces it. */
  elicitationResult(
    request: ElicitationRequest,
    result: ElicitResult,
    signal?: AbortSignal,
  ): Promise<{ answer?: HookElicitAnswer; errors: string[] }>;
}

export interface McpClientFeatures {
  /** The session's hooks, once it has them (servers connect before the session exists). */
  hooks?: () => ElicitationHooks | undefined;
  /**
   * Answers a server's question. Only the user may accept: a callback must not answer on its own.
   * Absent: every question is declined, and `warn` says which server asked what.
   */
  onElicitation?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;
  /** A server says a URL-mode question it asked (by its elicitationId) has been completed. */
  onElicitationComplete?: (server: string, elicitationId: string) => void;
  /** Runs sampling requests; absent: servers are told sampling is not available. */
  sampler?: Sampler;
  /** Servers allowed to sample without asking (settings `mcpSamplingServers`). */
  samplingAllowedServers?: readonly string[];
  /**
   * Asks the user whether a server may sample, showing the request; true allows this request.
   * Absent: only the servers in `samplingAllowedServers` may sample (headless policy).
   */
  approveSampling?: (request: SamplingRequest, signal: AbortSignal) => Promise<boolean>;
  /** The folders the session works in, offered to servers as roots. */
  roots?: () => readonly string[];
  /** Messages below this level are not sent by servers that support logging (default "warning"). */
  logLevel?: LoggingLevel;
  onServerLog?: (message: ServerLogMessage) => void;
  /** Where refusals are reported (stderr in the CLI). */
  warn?: (message: string) => void;
}
