// isReadOnlyCommand is synchronous (the Bash tool's isReadOnly / isConcurrencySafe): before the
// grammar is loaded it fails closed and starts the load, after it answers from the analysis.
import { describe, expect, it, vi } from "vitest";

describe("isReadOnlyCommand before and after the grammar loads", () => {
  it("answers false first, then the real answer", async () => {
    // Modules of its own: the worker may have run other files that loaded the grammar already.
    vi.resetModules();
    const { isReadOnlyCommand } = await import("../../../src/permissions/bash/check.js");
    const { loadedShellParser, loadShellParser } = await import("../../../src/shell/parse/index.js");
    expect(loadedShellParser()).toBeUndefined();
    expect(isReadOnlyCommand("ls", process.cwd())).toBe(false);
    await loadShellParser();
    expect(isReadOnlyCommand("ls", process.cwd())).toBe(true);
    expect(isReadOnlyCommand("ls; touch x", process.cwd())).toBe(false);
  });
});
