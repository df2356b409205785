// The command's analysis for the Bash tool's own decisions beside the permission rules: the
// programs it runs and its git subcommands (backgrounding on timeout, git tracking, the sandbox's
// excluded commands), and whether it is an in-place sed that can be judged and applied as an edit.
// One call analyses its command once: the permission check makes the analysis and keeps it in the
// call's memo (tool/call-memo.ts, carried on the resolved call), and call() takes it from there.
// A command the analysis cannot read has no facts: it is then stopped at its timeout and not
// tracked, as before.
import { loadBashAnalysis } from "../../permissions/bash/lazy-analysis.js";
import type { CommandFacts, ScriptAnalysis } from "../../shell/analysis/index.js";
import type { CallMemo } from "../../tool/call-memo.js";
import type { SedCommand } from "./sed-edit/simulated-edit.js";

/**
 * The command's analysis at `cwd`, made once per call when the call's memo is given (a direct
 * use without one analyses afresh). Rejects when the command cannot be analysed.
 */
export function bashAnalysisOf(command: string, cwd: string, memo: CallMemo | undefined): Promise<ScriptAnalysis> {
  const analyse = async () => {
    await loadBashAnalysis();
    const { analyzeCommand } = await import("../../shell/analysis/index.js");
    return analyzeCommand(command, cwd);
  };
  return memo ? memo.once(`bash-analysis\0${cwd}\0${command}`, analyse) : analyse();
}

async function analysisOf(
  command: string,
  cwd: string,
  memo: CallMemo | undefined,
): Promise<ScriptAnalysis | undefined> {
  try {
    return await bashAnalysisOf(command, cwd, memo);
  } catch {
    return undefined;
  }
}

export async function commandFactsOf(
  command: string,
  cwd: string,
  memo: CallMemo | undefined,
): Promise<CommandFacts | undefined> {
  const analysis = await analysisOf(command, cwd, memo);
  if (!analysis) return undefined;
  const { commandFacts } = await import("../../shell/analysis/index.js");
  return commandFacts(analysis);
}

/** The in-place sed the command is, when it is one the tool can simulate (sed-edit/). */
export async function inPlaceSedCommandOf(
  command: string,
  cwd: string,
  memo: CallMemo | undefined,
): Promise<SedCommand | undefined> {
  // Cheap text test first: most commands are not seds.
  if (!/\bsed\b/.test(command)) return undefined;
  const analysis = await analysisOf(command, cwd, memo);
  if (!analysis) return undefined;
  const { inPlaceSedOf } = await import("./sed-edit/simulated-edit.js");
  return inPlaceSedOf(analysis, cwd);
}
