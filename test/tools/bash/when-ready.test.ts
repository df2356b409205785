// The Bash tool's whenReady: a call waiting for the shell analysis also gets the orphan guard's
// watcher started while the grammar's wasm compiles (the load leaves the thread idle then), rather
// than at its launch after the load; a warm-up starts no process.
import { describe, expect, it, vi } from "vitest";

/** Fresh modules: the worker may have loaded the grammar or started a watcher in another file. */
async function freshModules() {
  vi.resetModules();
  const { bashWhenReady } = await import("../../../src/tools/bash/when-ready.js");
  const { orphanGuardPid } = await import("../../../src/process/orphan-guard.js");
  const { isBashAnalysisLoaded } = await import("../../../src/permissions/bash/lazy-analysis.js");
  const { whenGrammarCompiles } = await import("../../../src/shell/parse/index.js");
  return { bashWhenReady, orphanGuardPid, isBashAnalysisLoaded, whenGrammarCompiles };
}

describe("the Bash tool's whenReady", () => {
  it("starts the orphan guard's watcher while the grammar compiles when a call waits for the analysis", async () => {
    const { bashWhenReady, orphanGuardPid, isBashAnalysisLoaded, whenGrammarCompiles } = await freshModules();
    expect(orphanGuardPid()).toBeUndefined();
    const pending = bashWhenReady();
    expect(pending).toBeInstanceOf(Promise);
    await whenGrammarCompiles();
    await Promise.resolve();
    // Started before the load is over: the watcher no longer waits for it.
    expect(isBashAnalysisLoaded()).toBe(false);
    const pid = orphanGuardPid();
    expect(pid).toBeGreaterThan(1);
    expect(() => process.kill(pid as number, 0)).not.toThrow();
    await pending;
    expect(isBashAnalysisLoaded()).toBe(true);
    // Loaded: nothing pending, and the same watcher.
    expect(bashWhenReady()).toBeUndefined();
    expect(orphanGuardPid()).toBe(pid);
  });

  it("starts no process for a warm-up, which loads the analysis only in case a command comes", async () => {
    const { bashWhenReady, orphanGuardPid, isBashAnalysisLoaded } = await freshModules();
    await bashWhenReady({ pace: () => Promise.resolve() });
    expect(isBashAnalysisLoaded()).toBe(true);
    expect(orphanGuardPid()).toBeUndefined();
  });
});
