// Config: reads and changes the user-facing settings of ./settings-list.ts. Reading is allowed
// unasked (it shows what the user's own files say); changing asks, and goes through the same
// locked, atomic settings writer as "don't ask again" (src/permissions/settings/), into the user's
// settings file only: a project's files are workspace trust's business.
import * as z from "zod";
import { loadSettings } from "../../config/settings.js";
import { persistUserSetting } from "../../permissions/settings/index.js";
import { buildTool } from "../../tool/build-tool.js";
import { formatZodError } from "../../tool/schema.js";
import { CONFIG_PROMPT, CONFIG_TOOL_NAME } from "./prompt.js";
import { CONFIG_SETTINGS, findConfigSetting } from "./settings-list.js";

const inputSchema = z.lazy(() =>
  z.strictObject({
    setting: z.string().trim().min(1).describe('The setting\'s key, e.g. "model" or "permissions.defaultMode"'),
    value: z.union([z.string(), z.boolean()]).optional().describe("The new value; leave it out to read the setting"),
  }),
);

export type ConfigInput = z.infer<typeof inputSchema>;

export type ConfigOutput =
  | { action: "get"; setting: string; value: unknown; file?: string }
  | { action: "set"; setting: string; value: unknown; previous: unknown; file: string };

/** The value sessions see now, and the file that set it (highest precedence last wins). */
function currentValue(key: string, cwd: string): { value: unknown; file?: string } {
  const loaded = loadSettings({ cwd });
  let found: { value: unknown; file?: string } = { value: undefined };
  for (const file of loaded.files) {
    let value: unknown = file.settings;
    for (const part of key.split(".")) {
      value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[part] : undefined;
    }
    if (value !== undefined) found = { value, file: file.path };
  }
  return found;
}

const isSet = (input: ConfigInput) => input.value !== undefined;

export const ConfigTool = buildTool<ConfigInput, ConfigOutput>({
  name: CONFIG_TOOL_NAME,
  searchHint: "user settings model theme",
  shouldDefer: true,
  maxResultSizeChars: 10_000,
  inputSchema,
  prompt: async () => CONFIG_PROMPT,
  description: async (input) =>
    input && isSet(input as ConfigInput) ? `Set ${input.setting}` : `Read ${input?.setting ?? "a setting"}`,
  userFacingName: () => "Config",
  isReadOnly: (input) => !isSet(input),
  isConcurrencySafe: (input) => !isSet(input),
  // Reading shows the user's own files; a change is judged by the classifier.
  toAutoClassifierInput: (input) => (isSet(input) ? `set ${input.setting} = ${JSON.stringify(input.value)}` : ""),

  async validateInput(input) {
    const setting = findConfigSetting(input.setting);
    if (!setting) {
      return {
        result: false,
        message: `Config knows no setting ${JSON.stringify(input.setting)}. Settings: ${CONFIG_SETTINGS.map((s) => s.key).join(", ")}.`,
        errorCode: 1,
      };
    }
    if (!isSet(input)) return { result: true };
    const parsed = setting.schema.safeParse(input.value);
    if (!parsed.success) {
      return { result: false, message: formatZodError(`Config (${setting.key})`, parsed.error), errorCode: 2 };
    }
    return { result: true };
  },

  async checkPermissions(input) {
    if (!isSet(input)) {
      return { behavior: "allow", decisionReason: { type: "tool", reason: "reading a setting changes nothing" } };
    }
    return {
      behavior: "ask",
      message: `Save ${input.setting} = ${JSON.stringify(input.value)} in your user settings?`,
      decisionReason: { type: "tool", reason: "changing a setting needs the user's approval" },
    };
  },

  async call(input, context) {
    const setting = findConfigSetting(input.setting);
    if (!setting) throw new Error(`unknown setting ${input.setting}`);
    const now = currentValue(setting.key, context.options.cwd);
    if (!isSet(input)) return { data: { action: "get", setting: setting.key, ...now } };
    const value: unknown = setting.schema.parse(input.value);
    const file = persistUserSetting(setting.key, value);
    return { data: { action: "set", setting: setting.key, value, previous: now.value, file } };
  },

  mapToolResult(output, toolUseId) {
    const content =
      output.action === "get"
        ? output.value === undefined
          ? `${output.setting} is not set (the built-in default applies).`
          : `${output.setting} = ${JSON.stringify(output.value)} (from ${output.file}).`
        : `Saved ${output.setting} = ${JSON.stringify(output.value)} in ${output.file} (it was ${output.previous === undefined ? "not set" : JSON.stringify(output.previous)}). Sessions started from now on use it.`;
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
});
