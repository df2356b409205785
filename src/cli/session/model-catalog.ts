// What a session may switch its model to, as a picker offers it: the SDK's list_models and
// initialize's `models`, and the model picker an ACP editor shows.
import { settingsValue } from "../../config/settings.js";
import { ANTHROPIC_ALIASES } from "../../providers/resolve.js";
import type { BuiltSession } from "./start.js";

/** One entry of the SDK's ModelInfo list. */
export interface SdkModelInfo {
  value: string;
  displayName: string;
  description: string;
}

/** Models the OpenAI provider is commonly asked for (any other id works too). */
const OPENAI_NAMED = ["gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4o", "o3", "o4-mini"];

/**
 * What set_model may switch to: the session's model first, then the models of every provider
 * this process has a key for, then the models settings describe (`models`). Any other
 * `provider:model` is taken too; these are the ones worth offering in a picker.
 */
export function modelCatalog(built: BuiltSession, env: NodeJS.ProcessEnv = process.env): SdkModelInfo[] {
  const current = built.provider.current;
  const found = new Map<string, SdkModelInfo>();
  const add = (value: string, displayName: string, description: string) => {
    if (!found.has(value)) found.set(value, { value, displayName, description });
  };
  add(current.label, current.label, `${current.label} (this session's model)`);
  const provider = current.provider.name;
  if (provider === "anthropic" || env.ANTHROPIC_API_KEY) {
    for (const [alias, id] of Object.entries(ANTHROPIC_ALIASES)) add(alias, id, `Anthropic ${id}`);
  }
  if (provider === "openai" || env.OPENAI_API_KEY) {
    for (const id of OPENAI_NAMED) add(`openai:${id}`, id, `OpenAI ${id}`);
  }
  if (env.DEEPSEEK_API_KEY) {
    for (const id of ["deepseek-chat", "deepseek-reasoner"]) add(`deepseek:${id}`, id, `DeepSeek ${id}`);
  }
  for (const spec of Object.keys(settingsValue(built.plan.permissions.settings, "models") ?? {})) {
    add(spec, spec, `${spec} (from settings)`);
  }
  return [...found.values()];
}
