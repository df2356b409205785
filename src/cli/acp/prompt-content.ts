// An ACP prompt as the model reads it: text as written, a file the user attached by reference
// (resource_link) named with its path so the model can Read it, a file or selection whose text
// the editor sent (embedded resource) given whole, in a <context> block naming where it is from.

import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk/unstable";

/** A file URI as a path; a fragment (an editor's selection, `#L3:4`) is kept after it. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  const hash = uri.indexOf("#");
  const fragment = hash === -1 ? "" : uri.slice(hash);
  try {
    return fileURLToPath(hash === -1 ? uri : uri.slice(0, hash)) + fragment;
  } catch {
    return uri;
  }
}

export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  const context: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(`@${pathOf(block.uri)}`);
    else if (block.type === "resource") {
      const resource = block.resource;
      if ("text" in resource) {
        context.push(`<context ref="${pathOf(resource.uri)}">\n${resource.text}\n</context>`);
      } else {
        parts.push(`@${pathOf(resource.uri)}`);
      }
    }
    // Images and audio: not offered in promptCapabilities, so an editor does not send them.
  }
  return [parts.join(" "), ...context].filter((part) => part !== "").join("\n\n");
}
