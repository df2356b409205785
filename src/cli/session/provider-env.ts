// Claude Code applies settings `env` to its own process, so ~/.claude/settings.json is where many
// of its users keep what reaches the model: ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN of a proxy
// or compatible server, ANTHROPIC_MODEL, ANTHROPIC_DEFAULT_SONNET_MODEL. Warden gives settings
// `env` to the processes it starts; the providers' own variables it also takes for itself, or such
// a set-up would reach the wrong server with no key. Only the files in force count: an untrusted
// folder's own `env` is not among them (it must not send the user's key to a server it names).
import { type SettingsFile, settingsEnv } from "../../config/settings.js";

/** The variables the model providers read (src/providers): their keys, addresses and models. */
const PROVIDER_VARIABLE = /^(?:ANTHROPIC|OPENAI|OPENROUTER|DEEPSEEK|OLLAMA)_[A-Z0-9_]+$/;

/**
 * Sets the providers' variables of the settings' `env` in this process, over the shell's, as
 * Claude Code does. Only for a process that runs one session (its settings are the process's).
 */
export function applyProviderEnv(files: readonly SettingsFile[], env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(settingsEnv(files))) {
    if (PROVIDER_VARIABLE.test(name)) env[name] = value;
  }
}
