// The line under the prompt with a passing hint (the first Ctrl+C's "Press Ctrl+C again to exit"):
// set apart from the mode's name, which it used to run into ("default mode Press Ctrl+C ...").
import { createElement } from "react";
import { describe, expect, it } from "vitest";

describe("the status line's hint", () => {
  it("stands apart from the mode, and the usual hint comes back without it", async () => {
    const { render } = await import("ink-testing-library");
    const { StatusLine } = await import("../../src/ui/components/StatusLine.js");
    const status = { mode: "default" as const, inputTokens: 0, outputTokens: 0, costUsd: null, model: "replay:x" };
    const withHint = render(createElement(StatusLine, { status: { ...status, hint: "Press Ctrl+C again to exit" } }));
    expect(withHint.lastFrame()).toMatch(/^default mode · Press Ctrl\+C again to exit\s+0 tokens$/);
    withHint.unmount();
    const usual = render(createElement(StatusLine, { status }));
    expect(usual.lastFrame()).toMatch(/^default mode \(shift\+tab to cycle\)\s+0 tokens$/);
    usual.unmount();
  });
});
