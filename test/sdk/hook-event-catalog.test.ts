// The one list of hook events (src/config/hook-events.ts) against the real Agent SDK's: every event
// Warden fires is one Claude Code has, and Warden fires every one Claude Code has, so an SDK upgrade
// that brings a new event fails this test instead of going unnoticed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../src/config/hook-events.js";

function sdkHookEvents(): string[] {
  const require = createRequire(import.meta.url);
  const types = join(dirname(require.resolve("@anthropic-ai/claude-agent-sdk")), "sdk.d.ts");
  const line = readFileSync(types, "utf8").match(/export declare const HOOK_EVENTS: readonly \[([^\]]*)\]/);
  if (!line?.[1]) throw new Error(`no HOOK_EVENTS in ${types}`);
  return [...line[1].matchAll(/'([A-Za-z]+)'/g)].map((m) => m[1] as string);
}

describe("the hook event catalog against the Agent SDK", () => {
  it("names only Claude Code's events, and all of them", () => {
    const sdk = sdkHookEvents();
    expect(sdk.length).toBeGreaterThan(30);
    expect(HOOK_EVENTS.filter((event) => !sdk.includes(event))).toEqual([]);
    expect(sdk.filter((event) => !(HOOK_EVENTS as readonly string[]).includes(event))).toEqual([]);
  });
});
