// One row per step of the pipeline (1a → 3) and per mode: each decides where the reference says.
import { describe, expect, it } from "vitest";
import { hasPermissionsToUseTool } from "../../src/permissions/pipeline/index.js";
import { rulesFromStrings } from "../../src/permissions/rules/index.js";
import type {
  PermissionMode,
  PermissionResult,
  PermissionRule,
  ToolPermissionContext,
} from "../../src/tool/permission-types.js";
import { scriptedTool, tempDir, toolContext } from "./helpers.js";

const cwd = tempDir();

const contentAskRule: PermissionRule = {
  source: "projectSettings",
  behavior: "ask",
  value: { toolName: "T", ruleContent: "secret" },
};

interface Row {
  step: string;
  mode: PermissionMode;
  bypassAvailable?: boolean;
  rules?: { allow?: string[]; deny?: string[]; ask?: string[] };
  toolSays: PermissionResult;
  traits?: { readOnly?: boolean; needsHuman?: boolean };
  toolName?: string;
  expect: "allow" | "ask" | "deny";
  reason: string;
  /** Whether the tool's own check must have run. */
  checked: boolean;
}

const passthrough: PermissionResult = { behavior: "passthrough", message: "T needs permission." };
const toolAllow: PermissionResult = { behavior: "allow", decisionReason: { type: "tool", reason: "harmless input" } };

const rows: Row[] = [
  {
    step: "1a whole-tool deny rule, before the tool is asked",
    mode: "default",
    rules: { deny: ["T"] },
    toolSays: toolAllow,
    expect: "deny",
    reason: "rule",
    checked: false,
  },
  {
    step: "1a whole-tool deny rule holds in bypass",
    mode: "bypassPermissions",
    rules: { deny: ["T"] },
    toolSays: toolAllow,
    expect: "deny",
    reason: "rule",
    checked: false,
  },
  {
    step: "1a deny beats an allow rule for the same tool",
    mode: "default",
    rules: { deny: ["T"], allow: ["T"] },
    toolSays: passthrough,
    expect: "deny",
    reason: "rule",
    checked: false,
  },
  {
    step: "1a mcp__server denies every tool of that server",
    mode: "bypassPermissions",
    toolName: "mcp__srv__write",
    rules: { deny: ["mcp__srv"] },
    toolSays: toolAllow,
    expect: "deny",
    reason: "rule",
    checked: false,
  },
  {
    step: "1b whole-tool ask rule, even in bypass",
    mode: "bypassPermissions",
    rules: { ask: ["T"] },
    toolSays: toolAllow,
    expect: "ask",
    reason: "rule",
    checked: false,
  },
  {
    step: "1d the tool's deny, over an allow rule and bypass",
    mode: "bypassPermissions",
    rules: { allow: ["T"] },
    toolSays: { behavior: "deny", message: "no", decisionReason: { type: "tool", reason: "bad input" } },
    expect: "deny",
    reason: "tool",
    checked: true,
  },
  {
    step: "1e a tool that needs a human asks in bypass",
    mode: "bypassPermissions",
    traits: { needsHuman: true },
    toolSays: { behavior: "ask", message: "answer me" },
    expect: "ask",
    reason: "tool",
    checked: true,
  },
  {
    step: "1f a content-level ask rule asks in bypass",
    mode: "bypassPermissions",
    toolSays: { behavior: "ask", message: "rule says ask", decisionReason: { type: "rule", rule: contentAskRule } },
    expect: "ask",
    reason: "rule",
    checked: true,
  },
  {
    step: "1g a safety check asks in bypass, allow rule or not",
    mode: "bypassPermissions",
    rules: { allow: ["T"] },
    toolSays: { behavior: "ask", message: "protected", decisionReason: { type: "safetyCheck", reason: ".git" } },
    expect: "ask",
    reason: "safetyCheck",
    checked: true,
  },
  {
    step: "2a an ordinary ask is allowed in bypass",
    mode: "bypassPermissions",
    toolSays: { behavior: "ask", message: "hm", decisionReason: { type: "tool", reason: "unsure" } },
    expect: "allow",
    reason: "mode",
    checked: true,
  },
  {
    step: "2a passthrough is allowed in bypass",
    mode: "bypassPermissions",
    toolSays: passthrough,
    expect: "allow",
    reason: "mode",
    checked: true,
  },
  {
    step: "2a bypass without the explicit flag does nothing",
    mode: "bypassPermissions",
    bypassAvailable: false,
    toolSays: passthrough,
    expect: "ask",
    reason: "none",
    checked: true,
  },
  {
    step: "2b whole-tool allow rule",
    mode: "default",
    rules: { allow: ["T"] },
    toolSays: passthrough,
    expect: "allow",
    reason: "rule",
    checked: true,
  },
  {
    step: "2b a whole-tool allow rule settles the tool's ordinary ask",
    mode: "default",
    rules: { allow: ["T"] },
    toolSays: { behavior: "ask", message: "unsure", decisionReason: { type: "tool", reason: "unsure" } },
    expect: "allow",
    reason: "rule",
    checked: true,
  },
  {
    step: "an ordinary ask of the tool stays ask without rule or bypass",
    mode: "default",
    toolSays: { behavior: "ask", message: "unsure", decisionReason: { type: "tool", reason: "unsure" } },
    expect: "ask",
    reason: "tool",
    checked: true,
  },
  {
    step: "the tool's own allow",
    mode: "default",
    toolSays: toolAllow,
    expect: "allow",
    reason: "tool",
    checked: true,
  },
  {
    step: "3 passthrough becomes ask",
    mode: "default",
    toolSays: passthrough,
    expect: "ask",
    reason: "none",
    checked: true,
  },
  {
    step: "acceptEdits does not allow a tool that is no file edit",
    mode: "acceptEdits",
    toolSays: passthrough,
    expect: "ask",
    reason: "none",
    checked: true,
  },
  {
    step: "dontAsk turns ask into deny",
    mode: "dontAsk",
    toolSays: passthrough,
    expect: "deny",
    reason: "mode",
    checked: true,
  },
  {
    step: "dontAsk keeps what rules allow",
    mode: "dontAsk",
    rules: { allow: ["T"] },
    toolSays: passthrough,
    expect: "allow",
    reason: "rule",
    checked: true,
  },
  {
    step: "plan asks before a write even with an allow rule",
    mode: "plan",
    rules: { allow: ["T"] },
    toolSays: passthrough,
    expect: "ask",
    reason: "mode",
    checked: true,
  },
  {
    step: "plan lets read-only calls through",
    mode: "plan",
    traits: { readOnly: true },
    toolSays: toolAllow,
    expect: "allow",
    reason: "tool",
    checked: true,
  },
  {
    step: "auto leaves asks to the classifier layer",
    mode: "auto",
    toolSays: passthrough,
    expect: "ask",
    reason: "none",
    checked: true,
  },
];

function contextFor(row: Row): ToolPermissionContext {
  const { rules } = rulesFromStrings(row.rules ?? {}, "session", cwd, "test");
  return {
    mode: row.mode,
    workingDirectories: [cwd],
    rules,
    isBypassPermissionsModeAvailable: row.bypassAvailable ?? row.mode === "bypassPermissions",
  };
}

describe("the decision pipeline, step by step", () => {
  it.each(rows)("$step ($mode) → $expect", async (row) => {
    const tool = scriptedTool(row.toolName ?? "T", row.toolSays, row.traits);
    const permissionContext = contextFor(row);
    const decision = await hasPermissionsToUseTool(tool, {}, toolContext(cwd, permissionContext), permissionContext);
    expect(decision.behavior).toBe(row.expect);
    expect(decision.decisionReason?.type ?? "none").toBe(row.reason);
    expect(tool.checks > 0).toBe(row.checked);
  });

  it("names the rule and its source in the decision", async () => {
    const tool = scriptedTool("T", passthrough);
    const permissionContext = contextFor({
      step: "",
      mode: "default",
      rules: { deny: ["T"] },
      toolSays: passthrough,
      expect: "deny",
      reason: "rule",
      checked: false,
    });
    const decision = await hasPermissionsToUseTool(tool, {}, toolContext(cwd, permissionContext), permissionContext);
    expect(decision.behavior).toBe("deny");
    if (decision.behavior !== "deny" || decision.decisionReason.type !== "rule") throw new Error("expected a rule");
    expect(decision.decisionReason.rule.source).toBe("session");
    expect(decision.message).toContain("T (deny rule from this session)");
  });

  it("turns a throwing check into a deny that says so", async () => {
    const tool = scriptedTool("T", passthrough);
    tool.checkPermissions = async () => {
      throw new Error("parser exploded");
    };
    const permissionContext = contextFor({
      step: "",
      mode: "bypassPermissions",
      toolSays: passthrough,
      expect: "deny",
      reason: "tool",
      checked: true,
    });
    const decision = await hasPermissionsToUseTool(tool, {}, toolContext(cwd, permissionContext), permissionContext);
    expect(decision).toMatchObject({ behavior: "deny", message: expect.stringContaining("parser exploded") });
  });
});
