// The settings Config may read and change: user-facing preferences only. Permission rules, hooks,
// MCP servers, sandbox and trust are not here on purpose: a model must not be able to widen what
// it may do by editing settings, even with the user's one-click consent. Each entry says what it
// does and checks a value before anything is written.
import * as z from "zod";

export interface ConfigSetting {
  /** The key as written in settings.json (dotted: a field of an object). */
  key: string;
  /** What it changes, for the model and the user. */
  description: string;
  /** Checks (and converts: "true" → true) a value the model gave. */
  schema: z.ZodType;
}

const bool = z.lazy(() => z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]));

export const CONFIG_SETTINGS: readonly ConfigSetting[] = [
  {
    key: "model",
    description:
      "the model a session uses when --model is not given (provider:model, e.g. anthropic:claude-sonnet-4-6)",
    schema: z.string().regex(/^[a-z][a-z0-9-]*:\S+$/, "must be provider:model"),
  },
  {
    key: "permissions.defaultMode",
    description: "the permission mode sessions start in: default, acceptEdits, plan, dontAsk or auto",
    // bypassPermissions can only be chosen on the command line.
    schema: z.enum(["default", "acceptEdits", "plan", "dontAsk", "auto"]),
  },
  {
    key: "taskTools",
    description: "the task-list tools sessions offer: TodoWrite or Tasks",
    schema: z.enum(["TodoWrite", "Tasks"]),
  },
  {
    key: "toolSearch",
    description: "how tools are deferred: defer (names only until ToolSearch), never, or auto",
    schema: z.enum(["defer", "never", "auto"]),
  },
  {
    key: "brief",
    description: "whether sessions offer SendUserMessage, for short messages to the user while working (true/false)",
    schema: bool,
  },
  {
    key: "theme",
    description: "the interactive UI's colours: dark, light, dark-daltonized or light-daltonized",
    schema: z.enum(["dark", "light", "dark-daltonized", "light-daltonized"]),
  },
];

export function findConfigSetting(key: string): ConfigSetting | undefined {
  return CONFIG_SETTINGS.find((setting) => setting.key === key);
}
