// Claude Code applies settings `env` to its own process, so ~/.claude/settings.json is where many
// of its users keep what reaches the model: ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN of a proxy
// or compatible server, ANTHROPIC_MODEL, ANTHROPIC_DEFAULT_SONNET_MODEL. Warden gives settings
// `env` to the processes it starts; the providers' own variables it also takes for itself, or such
// a set-up would reach the wrong server with no key. Only the files in force count: an untrusted
// folder's own `env` is not among them (it must not send the user's key to a server it names).
import { execFileSync } from "node:child_process";
import { type LoadedSettings, type SettingsFile, settingsEnv, settingsValue } from "../../config/settings.js";
import { SessionSetupError } from "./setup-error.js";

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

/**
 * Claude Code's `apiKeyHelper`: a command (run with /bin/sh in the session's folder) whose output
 * is the Anthropic API key. Run once as the session starts, when no ANTHROPIC_API_KEY or
 * ANTHROPIC_AUTH_TOKEN is set (a key given outright wins); not run again when the key expires, as
 * Claude Code does every few minutes. A helper that fails or prints nothing stops the session.
 */
export function applyApiKeyHelper(settings: LoadedSettings, cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const helper = settingsValue(settings, "apiKeyHelper")?.trim();
  if (!helper || env.ANTHROPIC_API_KEY || env.ANTHROPIC_AUTH_TOKEN) return;
  let key: string;
  try {
    key = execFileSync("/bin/sh", ["-c", helper], {
      cwd,
      env,
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    throw new SessionSetupError(`apiKeyHelper (${helper}) failed: ${stderr || (error as Error).message}`, 1);
  }
  if (key === "") throw new SessionSetupError(`apiKeyHelper (${helper}) printed no key`, 1);
  env.ANTHROPIC_API_KEY = key;
}
