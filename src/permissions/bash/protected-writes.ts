// Writes into protected places (repository internals, agent and editor settings, shell start-up
// files) that a command makes, wherever it makes them: a redirection, a writing command's target,
// `git config` writing the repository's config. Even bypass mode asks about these.
import type { ScriptAnalysis } from "../../shell/analysis/index.js";
import { resolveWordPath, writeTargetsOf } from "../../shell/commands/index.js";
import { isOutputRedirect } from "../../shell/validators/index.js";
import type { Field } from "../../shell/words/index.js";
import { gitConfigWritten } from "./git-config-write.js";
import { hereResolved, homeResolved } from "./path-candidates.js";
import { isProtectedPath } from "./paths.js";

/**
 * Where a write target lands, reading `$HOME/x` as `~/x` and `$PWD/x` as the command's folder: a
 * guess (the script could change HOME first) that is only used to ask more, as protected paths do.
 */
function writtenPath(word: Field, cwd: string | undefined): string | undefined {
  const known = homeResolved(hereResolved(word, cwd) ?? word);
  return known === undefined ? undefined : resolveWordPath(known, cwd);
}

/** The first protected place the script writes, or undefined. */
export function findProtectedWrite(analysis: ScriptAnalysis): string | undefined {
  for (const redirect of analysis.structure.redirects) {
    if (!redirect.target || !isOutputRedirect(redirect.operator, redirect.target.value)) continue;
    const absolute = writtenPath(redirect.target, redirect.cwd);
    if (absolute && isProtectedPath(absolute)) return absolute;
  }
  for (const part of analysis.parts) {
    for (const view of part.unwrapping.views) {
      for (const target of writeTargetsOf(view.words)) {
        const absolute = writtenPath(target, part.command.cwd);
        if (absolute && isProtectedPath(absolute)) return absolute;
      }
      // `git config KEY VALUE` writes the repository's config (core.fsmonitor, core.hooksPath):
      // as protected as a redirection into it.
      const config = gitConfigWritten(view.words, part.command.cwd);
      if (config && isProtectedPath(config)) return config;
    }
  }
  return undefined;
}
