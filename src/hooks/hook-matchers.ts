// Which hooks apply: every settings file's hooks merged, and a matcher's test of a tool's name.
import type { LoadedSettings } from "../config/settings.js";
import { HOOK_EVENTS, type HooksConfig } from "../config/settings-schema.js";

/** All hooks of every settings file, lowest precedence first (Claude Code runs them all). */
export function hooksFromSettings(loaded: LoadedSettings): HooksConfig {
  const merged: HooksConfig = {};
  for (const file of loaded.files) {
    for (const event of HOOK_EVENTS) {
      const matchers = file.settings.hooks?.[event];
      if (matchers?.length) merged[event] = [...(merged[event] ?? []), ...matchers];
    }
  }
  return merged;
}

/** `Edit|Write` exact names, `*` or empty for all, otherwise a regular expression on the whole name. */
export function matcherAccepts(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[A-Za-z0-9_|-]+$/.test(matcher)) return matcher.split("|").includes(toolName);
  try {
    return new RegExp(`^(?:${matcher})$`).test(toolName);
  } catch {
    return false;
  }
}
