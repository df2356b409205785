// Messages typed while the model worked wait on the session's channel for its next request. When
// the prompt ends with them still there (Esc stopped it before that request), they were never
// read: they go back into the prompt, as Claude Code does, for the person to edit, send again or
// drop, rather than riding along, unseen, with whatever is typed next.
import type { UserMessage } from "../../messages/types.js";
import type { Channel } from "../../tool/channel.js";

/**
 * Takes out of `channel` the messages whose text is one of `typed` (what the person queued), and
 * returns their texts in order; everything else there (a `!command`'s output, attached files)
 * stays for the model.
 */
export function takeBackTypedMessages(channel: Channel<UserMessage>, typed: readonly string[]): string[] {
  if (typed.length === 0 || channel.size === 0) return [];
  const left = [...typed];
  const taken: string[] = [];
  const kept: UserMessage[] = [];
  for (const message of channel.drain()) {
    const only = message.content.length === 1 ? message.content[0] : undefined;
    const at = only?.type === "text" ? left.indexOf(only.text) : -1;
    if (at >= 0) {
      taken.push(left.splice(at, 1)[0] as string);
    } else kept.push(message);
  }
  if (kept.length > 0) channel.send(...kept);
  return taken;
}
