// A call's one line in the transcript: a tool whose input has none of the usual fields (a command,
// a path, a pattern) is still shown by its text, not as escaped JSON.
import { describe, expect, it } from "vitest";
import { toolCallSummary } from "../../src/ui/transcript/tool-summary.js";

describe("toolCallSummary", () => {
  it("shows a plan's first line, not the call's JSON with its \\n and quotes", () => {
    const plan = '# Plan\n\n1. Add a docstring to `add`.\n2. Add a "sub" function.';
    const line = toolCallSummary(
      undefined,
      { type: "tool_use", id: "p1", name: "ExitPlanMode", input: { plan } },
      "/tmp",
    );
    expect(line).toBe("ExitPlanMode(# Plan …)");
  });

  it("shows input without any text as JSON, and no input as empty parentheses", () => {
    const use = (input: Record<string, unknown>) => ({ type: "tool_use" as const, id: "x", name: "Tool", input });
    expect(toolCallSummary(undefined, use({ count: 3 }), "/tmp")).toBe('Tool({"count":3})');
    expect(toolCallSummary(undefined, use({}), "/tmp")).toBe("Tool()");
  });
});
