// The command's analysis facts for the Bash tool's own decisions after permission (backgrounding
// on timeout, git tracking). The analysis is loaded by then (checkPermissions needed it); loading
// it here again only awaits the same promise. A command the analysis cannot read has no facts:
// it is then stopped at its timeout and not tracked, as before.
import { loadBashAnalysis } from "../../permissions/bash/lazy-analysis.js";
import type { CommandFacts } from "../../shell/analysis/index.js";

export async function commandFactsOf(command: string, cwd: string): Promise<CommandFacts | undefined> {
  try {
    await loadBashAnalysis();
    const { analyzeCommand, commandFacts } = await import("../../shell/analysis/index.js");
    return commandFacts(await analyzeCommand(command, cwd));
  } catch {
    return undefined;
  }
}
