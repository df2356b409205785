// The model-facing text of Config.
import { CONFIG_SETTINGS } from "./settings-list.js";

export const CONFIG_TOOL_NAME = "Config";

export const CONFIG_PROMPT = `Reads or changes one of the user's Warden settings. Without \`value\` it reads the setting as sessions see it now (and from which file); with \`value\` it saves it in the user's settings (~/.warden/settings.json), after the user approves. A change applies to sessions started afterwards.

Use it when the user asks to see or change a preference; never change a setting they did not ask for.

Settings:
${CONFIG_SETTINGS.map((setting) => `- ${setting.key}: ${setting.description}`).join("\n")}`;
