// Which model a subagent runs on: the definition's, then the call's `model`, then the main loop's
// ('inherit' or nothing: the main one). Short aliases (sonnet, opus, haiku) are mapped per
// provider; a full `provider:model` is used as written. The host (src/loop/subagent/) turns the
// answer into a provider, reusing the session's when it is the same one.

/** The alias's model on each provider that has one; elsewhere an alias means the main model. */
const ALIASES: Record<string, Record<string, string>> = {
  anthropic: { sonnet: "claude-sonnet-4-6", opus: "claude-opus-4-5", haiku: "claude-haiku-4-5" },
  openai: { sonnet: "gpt-4.1", opus: "gpt-5", haiku: "gpt-4.1-mini" },
};

export const MODEL_ALIASES = ["sonnet", "opus", "haiku"] as const;

/**
 * `provider:model` for the child, or undefined for the main loop's model. `mainModel` is the
 * session's `provider:model`.
 */
export function resolveAgentModel(
  definitionModel: string | undefined,
  requested: string | undefined,
  mainModel: string,
): string | undefined {
  for (const choice of [definitionModel, requested]) {
    if (choice === undefined || choice === "" || choice === "inherit") continue;
    if (choice.includes(":")) return choice;
    const provider = mainModel.slice(0, mainModel.indexOf(":"));
    const mapped = ALIASES[provider]?.[choice.toLowerCase()];
    // An alias the provider has no table for (a local server, the replay provider): the main model.
    return mapped ? `${provider}:${mapped}` : undefined;
  }
  return undefined;
}
