// The attachment module of the loop: the one list of what the model is told before each request
// besides the conversation (src/tool/attachments.ts explains the contract). In order: the built-in
// kinds (src/context/attachments/: hook context, changed files, nested memory, date change,
// deferred-tools and MCP-instructions deltas, token and budget use), the kinds the session's
// options add, the kinds the tools of the pool bring (Tool.attachments: a todo list...), and last
// the messages the user queued while the prompt ran. A feature adds its reminder as a source here
// or on its tool, never as code in query(). Sources only read: what waits on the session's channels
// for the model (reminders, queued messages) is drained here, once per request, and handed to the
// sources that show it as AttachmentContext.arrived.
import { AttachmentRegistry, builtInAttachmentSources } from "../context/attachments/index.js";
import type { UserMessage } from "../messages/types.js";
import type { AnyTool, AttachmentContext, AttachmentSource } from "../tool/types.js";
import type { RequestPrefixCache } from "./request-prefix.js";

export interface SessionAttachmentOptions {
  /** The date the system prompt states (YYYY-MM-DD). */
  startDate: string;
  /** The session's request prefix, which knows the deferred tools the system prompt lists. */
  prefix: RequestPrefixCache;
  /** Kinds a library user or a feature adds (after the built-in ones). */
  sources?: readonly AttachmentSource[];
  /** A source that threw: its reminder is skipped, the request goes on. */
  onError?: (kind: string, error: unknown) => void;
}

/** `queued_command`: messages the user sent while the prompt ran join the next request, in their own words. */
export const queuedCommandSource: AttachmentSource = {
  kind: "queued_command",
  collect({ arrived }) {
    return (arrived?.userMessages ?? []).map((message) => ({ message }));
  },
};

/** One session's attachments: its sources (each keeps what it told this session) and their throttles. */
export class SessionAttachments {
  private readonly registry: AttachmentRegistry;
  private readonly sessionSources: AttachmentSource[];

  constructor(options: SessionAttachmentOptions) {
    this.registry = new AttachmentRegistry(options.onError);
    this.sessionSources = [
      ...builtInAttachmentSources({
        startDate: options.startDate,
        deferredTools: {
          inSystemPrompt: () => options.prefix.deferredInSystemPrompt(),
          available: () => options.prefix.deferredAvailable(),
        },
      }),
      ...(options.sources ?? []),
    ];
  }

  /** Model requests asked for so far. */
  get turn(): number {
    return this.registry.turn;
  }

  /** Every source in the order their reminders go out, for a request with this pool. */
  sourcesFor(pool: readonly AnyTool[]): AttachmentSource[] {
    const fromTools: AttachmentSource[] = [];
    for (const tool of pool) if (tool.attachments) fromTools.push(...tool.attachments);
    return [...this.sessionSources, ...fromTools, queuedCommandSource];
  }

  /**
   * The messages to add before the coming request. The channels are drained here, before any source
   * runs: `hook_context` and `queued_command`, which are always in the list, show what was taken.
   */
  collect(base: Omit<AttachmentContext, "turn" | "arrived">): Promise<UserMessage[]> {
    const { channels } = base.context;
    const arrived = { reminders: channels.reminders.drain(), userMessages: channels.userMessages.drain() };
    return this.registry.collect({ ...base, arrived }, this.sourcesFor(base.context.options.tools));
  }

  /** What the sources put back after a compaction, one text per kind. */
  afterCompaction(base: Omit<AttachmentContext, "turn">): Promise<Array<{ kind: string; text: string }>> {
    return this.registry.afterCompaction(base, this.sourcesFor(base.context.options.tools));
  }
}
