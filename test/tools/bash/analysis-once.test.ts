// One Bash call analyses its command once: the permission check's analysis (a full shell parse and
// the validators) travels on the resolved call's memo to call(), which reads the command's facts
// from it instead of parsing again. Counted through the shell analysis's own observer, on the
// real single-call path with the real permission engine.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolUse } from "../../../src/orchestration/run-tool-use.js";
import { loadBashAnalysis } from "../../../src/permissions/bash/lazy-analysis.js";
import { createCanUseTool, createHeadlessAskHandler } from "../../../src/permissions/index.js";
import { observeAnalyses } from "../../../src/shell/analysis/index.js";
import { createSession, type Session } from "./harness.js";

let session: Session | undefined;
afterEach(async () => {
  await session?.cleanup();
  session = undefined;
});

/** Runs `command` as one Bash call through the engine; returns the result and the analyses of it. */
async function runCounted(current: Session, id: string, command: string) {
  const seen: string[] = [];
  const stop = observeAnalyses((analysed) => {
    if (analysed === command) seen.push(analysed);
  });
  try {
    // Headless: an ask would be a denial, so a passing call was decided without asking.
    const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler() });
    const outcome = await runToolUse(
      { type: "tool_use", id, name: "Bash", input: { command } },
      current.context,
      canUseTool,
      undefined,
    );
    return { result: outcome.result, analyses: seen.length };
  } finally {
    stop();
  }
}

describe("the Bash analysis carried on the resolved call", () => {
  it("analyses a command once for its permission check and its run", async () => {
    session = createSession({});
    session.context.setAppState((state) => ({
      ...state,
      toolPermissionContext: { ...state.toolPermissionContext, mode: "acceptEdits" },
    }));
    await loadBashAnalysis();
    // Not read-only (so no earlier answer is remembered anywhere), allowed by acceptEdits, and it
    // has facts call() needs (the programs it runs, whether git is among them).
    const command = "touch made-once.txt";
    const { result, analyses } = await runCounted(session, "toolu_once_1", command);
    expect(result.is_error, String(result.content)).toBeFalsy();
    expect(existsSync(join(session.project, "made-once.txt"))).toBe(true);
    expect(analyses).toBe(1);
  });

  it("keeps an analysis for its own call only: the same command in a new call is analysed again", async () => {
    session = createSession({});
    session.context.setAppState((state) => ({
      ...state,
      toolPermissionContext: { ...state.toolPermissionContext, mode: "acceptEdits" },
    }));
    await loadBashAnalysis();
    const command = "touch made-twice.txt";
    const first = await runCounted(session, "toolu_twice_1", command);
    const second = await runCounted(session, "toolu_twice_2", command);
    expect(first.result.is_error).toBeFalsy();
    expect(second.result.is_error).toBeFalsy();
    expect([first.analyses, second.analyses]).toEqual([1, 1]);
  });
});
