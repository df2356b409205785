// Writes into protected places (repository internals, agent and editor settings, shell start-up
// files) that a command makes, wherever it makes them: a redirection, a writing command's target,
// `git config` writing the repository's config. Even bypass mode asks about these.
import type { ScriptAnalysis } from "../../shell/analysis/index.js";
import { resolveWordPath, writeTargetsOf } from "../../shell/commands/index.js";
import { resolveShellPath } from "../../shell/parse/index.js";
import { isOutputRedirect } from "../../shell/validators/index.js";
import type { Field } from "../../shell/words/index.js";
import type { ToolPermissionContext } from "../../tool/permission-types.js";
import { gitConfigWritten } from "./git-config-write.js";
import { globMatches } from "./glob-matches.js";
import { hereResolved, homeResolved } from "./path-candidates.js";
import { isProtectedPath, isProtectedWrite } from "./paths.js";

/**
 * Where a write target may land, reading `$HOME/x` as `~/x` and `$PWD/x` as the command's folder
 * (a guess, since the script could change HOME first, used only to ask more), and a glob as every
 * place it matches now (`.g?t/config`, `~/.z*rc`): bash hands the command those names. A glob too
 * large to list comes back as itself, flagged, and is treated as protected.
 */
function writtenPaths(word: Field, cwd: string | undefined): Array<{ path: string; unlisted?: boolean }> {
  const known = homeResolved(hereResolved(word, cwd) ?? word);
  if (known === undefined) return [];
  const base = resolveWordPath(known, cwd);
  const places: Array<{ path: string; unlisted?: boolean }> = base === undefined ? [] : [{ path: base }];
  const absolute = known.value.startsWith("~") || cwd !== undefined;
  if (known.glob && absolute) {
    const pattern = resolveShellPath(known.value, cwd ?? "/");
    const matches = globMatches(pattern, cwd ?? "/");
    if (matches === undefined) places.push({ path: pattern, unlisted: true });
    else places.push(...matches.map((path) => ({ path })));
  }
  return places;
}

function protectedAmong(
  places: Array<{ path: string; unlisted?: boolean }>,
  context: ToolPermissionContext | undefined,
): string | undefined {
  const found = places.find((p) => p.unlisted === true || isProtectedWrite(p.path, context));
  if (!found) return undefined;
  if (found.unlisted) return `${found.path} (a glob with more matches than can be checked)`;
  return isProtectedPath(found.path)
    ? found.path
    : `${found.path} (in the checkout this isolated agent works apart from)`;
}

/**
 * The first protected place the script writes, or undefined (with `context`: also a place the
 * session is confined from, see isProtectedWrite).
 */
export function findProtectedWrite(analysis: ScriptAnalysis, context?: ToolPermissionContext): string | undefined {
  for (const redirect of analysis.structure.redirects) {
    if (!redirect.target || !isOutputRedirect(redirect.operator, redirect.target.value)) continue;
    const found = protectedAmong(writtenPaths(redirect.target, redirect.cwd), context);
    if (found) return found;
  }
  for (const part of analysis.parts) {
    for (const view of part.unwrapping.views) {
      for (const target of writeTargetsOf(view.words)) {
        const found = protectedAmong(writtenPaths(target, part.command.cwd), context);
        if (found) return found;
      }
      // `git config KEY VALUE` writes the repository's config (core.fsmonitor, core.hooksPath):
      // as protected as a redirection into it.
      const config = gitConfigWritten(view.words, part.command.cwd);
      if (config && isProtectedWrite(config, context)) return config;
    }
  }
  return undefined;
}
