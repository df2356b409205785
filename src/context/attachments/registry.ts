// Asks the attachment sources before each model request, in order, and turns what they return
// into messages: texts become meta user messages wrapped in <system-reminder>, marked with their
// kind; whole messages pass unchanged. Each kind is throttled on its own (minTurnsBetween), and a
// source that fails costs only its own reminder, never the request.
import type { UserMessage } from "../../messages/types.js";
import { wrapSystemReminder } from "../../tool/attachments.js";
import type { AttachmentContext, AttachmentSource } from "../../tool/types.js";

export class AttachmentRegistry {
  /** Requests asked for so far in this session. */
  private turns = 0;
  /** The request at which each kind last attached something. */
  private readonly lastAttached = new Map<string, number>();

  constructor(private readonly onError: (kind: string, error: unknown) => void = () => {}) {}

  /** Model requests the registry has been asked for (the session's count). */
  get turn(): number {
    return this.turns;
  }

  /** The messages `sources` have for the coming request, in the sources' order. */
  async collect(base: Omit<AttachmentContext, "turn">, sources: readonly AttachmentSource[]): Promise<UserMessage[]> {
    const ctx: AttachmentContext = { ...base, turn: this.turns };
    this.turns++;
    const messages: UserMessage[] = [];
    for (const source of unique(sources)) {
      const last = this.lastAttached.get(source.kind);
      if (last !== undefined && source.minTurnsBetween && ctx.turn - last < source.minTurnsBetween) continue;
      let items: Awaited<ReturnType<AttachmentSource["collect"]>>;
      try {
        items = await source.collect(ctx);
      } catch (error) {
        this.onError(source.kind, error);
        continue;
      }
      if (!items || items.length === 0) continue;
      this.lastAttached.set(source.kind, ctx.turn);
      for (const item of items) {
        messages.push(
          "message" in item
            ? item.message
            : {
                role: "user",
                content: [{ type: "text", text: wrapSystemReminder(item.text) }],
                isMeta: true,
                attachment: source.kind,
              },
        );
      }
    }
    return messages;
  }

  /** What each source puts back after a compaction, one text per kind that has something. */
  async afterCompaction(
    base: Omit<AttachmentContext, "turn">,
    sources: readonly AttachmentSource[],
  ): Promise<Array<{ kind: string; text: string }>> {
    const ctx: AttachmentContext = { ...base, turn: this.turns };
    const out: Array<{ kind: string; text: string }> = [];
    for (const source of unique(sources)) {
      if (!source.afterCompaction) continue;
      try {
        const text = await source.afterCompaction(ctx);
        if (text) out.push({ kind: source.kind, text });
      } catch (error) {
        this.onError(source.kind, error);
      }
    }
    return out;
  }
}

/** The same source object listed twice (two tools sharing one) is asked once. */
function unique(sources: readonly AttachmentSource[]): AttachmentSource[] {
  return [...new Set(sources)];
}
