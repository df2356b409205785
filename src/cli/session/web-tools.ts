// The web tools' part of a session's settings: WebFetch's pre-approved hosts, and whether (and how)
// WebSearch can search: with the settings' backend, or with the provider's own server-side search
// (Anthropic). With neither, WebSearch is not offered.
import { type LoadedSettings, settingsValue } from "../../config/settings.js";
import type { BuiltInToolsOptions } from "../../tools/registry.js";

/** Providers whose API searches the web by itself (the side query's `serverWebSearch`). */
const SERVER_SEARCH_PROVIDERS: ReadonlySet<string> = new Set(["anthropic"]);

export function webToolOptions(
  settings: LoadedSettings,
  providerName: string,
): Pick<BuiltInToolsOptions, "webFetch" | "webSearch"> {
  const webFetch = settingsValue(settings, "webFetch");
  const backend = settingsValue(settings, "webSearch");
  return {
    ...(webFetch?.preapprovedHosts ? { webFetch: { preapprovedHosts: webFetch.preapprovedHosts } } : {}),
    webSearch: { serverSide: SERVER_SEARCH_PROVIDERS.has(providerName), ...(backend ? { backend } : {}) },
  };
}

/**
 * Settings `smallFastModel`: the model of the session's provider that side queries ask. On the
 * Anthropic API, Claude Code's ANTHROPIC_DEFAULT_HAIKU_MODEL (or its older ANTHROPIC_SMALL_FAST_MODEL)
 * names it otherwise, as for Claude Code's background requests.
 */
export function smallFastModelSetting(
  settings: LoadedSettings,
  providerName?: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const value = settingsValue(settings, "smallFastModel");
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (providerName !== "anthropic") return undefined;
  return env.ANTHROPIC_DEFAULT_HAIKU_MODEL?.trim() || env.ANTHROPIC_SMALL_FAST_MODEL?.trim() || undefined;
}
