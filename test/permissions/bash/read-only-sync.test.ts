// isReadOnlyCommand is synchronous (the Bash tool's isReadOnly / isConcurrencySafe): before the
// grammar is loaded it fails closed and starts the load, after it answers from the analysis.
// Its own file, so this process has not loaded the grammar yet.
import { describe, expect, it } from "vitest";
import { isReadOnlyCommand } from "../../../src/permissions/bash/check.js";
import { loadedShellParser, loadShellParser } from "../../../src/shell/parse/index.js";

describe("isReadOnlyCommand before and after the grammar loads", () => {
  it("answers false first, then the real answer", async () => {
    expect(loadedShellParser()).toBeUndefined();
    expect(isReadOnlyCommand("ls", process.cwd())).toBe(false);
    await loadShellParser();
    expect(isReadOnlyCommand("ls", process.cwd())).toBe(true);
    expect(isReadOnlyCommand("ls; touch x", process.cwd())).toBe(false);
  });
});
