// The command's analysis for the Bash tool's own decisions beside the permission rules: the
// programs it runs and its git subcommands (backgrounding on timeout, git tracking), and whether
// it is an in-place sed that can be judged and applied as an edit. The analysis is loaded by then
// (checkPermissions needed it); loading it here again only awaits the same promise. A command the
// analysis cannot read has no facts: it is then stopped at its timeout and not tracked, as before.
import { loadBashAnalysis } from "../../permissions/bash/lazy-analysis.js";
import type { CommandFacts, ScriptAnalysis } from "../../shell/analysis/index.js";
import type { SedCommand } from "./sed-edit/simulated-edit.js";

async function analysisOf(command: string, cwd: string): Promise<ScriptAnalysis | undefined> {
  try {
    await loadBashAnalysis();
    const { analyzeCommand } = await import("../../shell/analysis/index.js");
    return await analyzeCommand(command, cwd);
  } catch {
    return undefined;
  }
}

export async function commandFactsOf(command: string, cwd: string): Promise<CommandFacts | undefined> {
  const analysis = await analysisOf(command, cwd);
  if (!analysis) return undefined;
  const { commandFacts } = await import("../../shell/analysis/index.js");
  return commandFacts(analysis);
}

/** The in-place sed the command is, when it is one the tool can simulate (sed-edit/). */
export async function inPlaceSedCommandOf(command: string, cwd: string): Promise<SedCommand | undefined> {
  // Cheap text test first: most commands are not seds, and need no second analysis.
  if (!/\bsed\b/.test(command)) return undefined;
  const analysis = await analysisOf(command, cwd);
  if (!analysis) return undefined;
  const { inPlaceSedOf } = await import("./sed-edit/simulated-edit.js");
  return inPlaceSedOf(analysis, cwd);
}
