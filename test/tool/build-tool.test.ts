import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.js";
import { createToolUseContext } from "../../src/tool/context.js";
import { emptyPermissionContext } from "../../src/tool/permission-types.js";
import { assembleToolPool } from "../../src/tool/pool.js";
import { toolInputJSONSchema } from "../../src/tool/schema.js";

const minimal = buildTool({
  name: "Minimal",
  inputSchema: z.object({ value: z.string(), count: z.number().default(1) }),
  prompt: async () => "a minimal tool",
  call: async (args) => ({ data: `${args.value}x${args.count}` }),
});

describe("buildTool", () => {
  it("fills fail-closed defaults", async () => {
    const ctx = createToolUseContext({
      options: {
        tools: [minimal],
        model: "replay:x",
        cwd: "/tmp",
        sessionId: "s",
        sessionDir: "/tmp",
        isNonInteractive: true,
      },
      appState: { toolPermissionContext: emptyPermissionContext("/tmp") },
    });
    expect(minimal.isReadOnly({ value: "a", count: 1 })).toBe(false);
    expect(minimal.isConcurrencySafe({ value: "a", count: 1 })).toBe(false);
    expect(minimal.isDestructive({ value: "a", count: 1 })).toBe(false);
    expect(minimal.isEnabled()).toBe(true);
    expect(minimal.interruptBehavior()).toBe("block");
    const perm = await minimal.checkPermissions({ value: "a", count: 1 }, ctx);
    expect(perm.behavior).toBe("passthrough");
  });

  it("refuses, when the tool is made, a definition that lacks a member with no default, naming both", () => {
    const make = (def: object) => () => buildTool(def as Parameters<typeof buildTool>[0]);
    expect(make({ name: "NoPrompt", inputSchema: z.object({}), call: async () => ({ data: 1 }) })).toThrow(
      'buildTool: the tool "NoPrompt" lacks prompt() (the text the model reads about the tool)',
    );
    expect(make({ name: "Bare", inputSchema: { type: "object" }, prompt: async () => "" })).toThrow(
      'buildTool: the tool "Bare" lacks inputSchema (a zod schema), call()',
    );
    expect(make({ inputSchema: z.object({}), prompt: async () => "", call: async () => ({ data: 1 }) })).toThrow(
      "buildTool: the tool lacks name (a non-empty string)",
    );
  });

  it("keeps defaulted fields optional in the model's JSON schema", () => {
    const schema = toolInputJSONSchema(minimal);
    expect(schema.required).toEqual(["value"]);
    expect(toolInputJSONSchema(minimal)).toBe(schema);
  });

  it("assembles a pool without disabled tools or tools denied by name", () => {
    const disabled = buildTool({ ...minimal, name: "Disabled", isEnabled: () => false });
    const denied = buildTool({ ...minimal, name: "Denied" });
    const pool = assembleToolPool([minimal, disabled, denied], [], {
      allow: [],
      ask: [],
      deny: [{ source: "session", behavior: "deny", value: { toolName: "Denied" } }],
    });
    expect(pool.map((t) => t.name)).toEqual(["Minimal"]);
  });
});
