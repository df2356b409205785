// The `models` settings that apply to the session's model, merged from every settings file (lowest
// precedence first) and from the least to the most specific key: `provider:*`, the bare model id,
// then `provider:model`. A more specific key wins over a less specific one whatever file holds it.
import type { LoadedSettings } from "../../config/settings.js";
import type { ModelSettings } from "../../config/settings-schema.js";
import type { ModelOverride } from "../../models/resolve.js";

export function modelOverrideFromSettings(
  loaded: LoadedSettings,
  providerName: string,
  model: string,
): ModelOverride | undefined {
  const keys = [`${providerName}:*`, model, `${providerName}:${model}`];
  let merged: ModelSettings | undefined;
  for (const key of keys) {
    for (const file of loaded.files) {
      const found = file.settings.models?.[key];
      if (found) merged = { ...merged, ...found };
    }
  }
  if (!merged) return undefined;
  const { price, ...limits } = merged;
  const override: ModelOverride = { ...limits };
  if (price) {
    override.price = {
      input: price.input,
      output: price.output,
      // Left out: never below what the vendors charge relative to input (a budget must not be fooled).
      cacheWrite: price.cacheWrite ?? price.input * 1.25,
      cacheRead: price.cacheRead ?? price.input,
    };
  }
  return override;
}
