// The one list of hook events (src/config/hook-events.ts) is what settings accept and what says
// which events concern one tool call. test/sdk/hook-event-catalog.test.ts holds it to the Agent
// SDK's own list.
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS, hookEventInfo, isToolEvent } from "../../src/config/hook-events.js";
import { hooksSchema, unknownHookEvents } from "../../src/config/settings-schema.js";

describe("the hook event catalog", () => {
  it("is what settings accept: no catalog event is unknown, and each validates its hooks", () => {
    const hooks = Object.fromEntries(
      HOOK_EVENTS.map((event) => [event, [{ hooks: [{ type: "command", command: "true" }] }]]),
    );
    expect(unknownHookEvents(hooks)).toEqual([]);
    expect(unknownHookEvents({ ...hooks, PreModelSwap: [] })).toEqual(["PreModelSwap"]);
    const parsed = hooksSchema.safeParse({ Setup: [{ hooks: [{ type: "command" }] }] });
    expect(parsed.success).toBe(false);
  });

  it("says which events test a tool call's name (and so an `if`)", () => {
    expect(HOOK_EVENTS.filter(isToolEvent).sort()).toEqual(
      [
        "PermissionDenied",
        "PermissionRequest",
        "PostToolUse",
        "PostToolUseFailure",
        "PreSkillShellCommand",
        "PreToolUse",
      ].sort(),
    );
    expect(hookEventInfo("Setup").matcher).toBe("trigger");
    expect(hookEventInfo("MessageDisplay").matcher).toBeUndefined();
  });
});
