// How a configured hook reads to a person (listings, trust questions, hook events): its command,
// the URL it posts to, or the question it asks a model.
import type { HookConfig } from "../config/settings-schema.js";

export function hookText(hook: HookConfig): string {
  switch (hook.type) {
    case "command":
      return hook.command;
    case "http":
      return `POST ${hook.url}`;
    case "prompt":
    case "agent":
      return `${hook.type}: ${hook.prompt}`;
  }
}
