// The security validator pipeline in the reference's order: phase-0 byte checks, early
// validators (the only ones that may end the checks as safe), then the main validators, whose
// deferred findings (newlines, plain output redirection) are reported only if nothing graver is.

import { emptyCommand, gitCommit, incompleteCommands, safeHeredocSubstitution } from "./early.js";
import { controlCharacters, shellQuoteSingleQuoteBug } from "./pre-checks.js";
import {
  backslashEscapedOperators,
  backslashEscapedWhitespace,
  braceExpansion,
  carriageReturn,
  commentQuoteDesync,
  midWordHash,
  obfuscatedFlags,
  quotedNewline,
  shellMetacharacters,
  unicodeWhitespace,
} from "./quoting.js";
import {
  dangerousPatterns,
  dangerousVariables,
  ifsInjection,
  jqCommand,
  malformedTokens,
  newlines,
  procEnvironAccess,
  redirections,
  zshDangerousCommands,
} from "./structure.js";
import type { Finding, ValidationInput, Validator } from "./types.js";

export const PRE_CHECKS: readonly Validator[] = [controlCharacters, shellQuoteSingleQuoteBug];

export const EARLY_VALIDATORS: readonly Validator[] = [
  emptyCommand,
  incompleteCommands,
  safeHeredocSubstitution,
  gitCommit,
];

export const MAIN_VALIDATORS: readonly Validator[] = [
  jqCommand,
  obfuscatedFlags,
  shellMetacharacters,
  dangerousVariables,
  commentQuoteDesync,
  quotedNewline,
  carriageReturn,
  newlines,
  ifsInjection,
  procEnvironAccess,
  dangerousPatterns,
  redirections,
  backslashEscapedWhitespace,
  backslashEscapedOperators,
  unicodeWhitespace,
  midWordHash,
  braceExpansion,
  zshDangerousCommands,
  malformedTokens,
];

export interface ValidationOutcome {
  /** The first grave finding, if any; otherwise every deferred one. */
  findings: Finding[];
  /** An early validator proved the command safe to hand to the rules. */
  earlyAllow: boolean;
}

export function runValidators(input: ValidationInput): ValidationOutcome {
  for (const validator of PRE_CHECKS) {
    const outcome = validator.check(input);
    if (outcome && outcome !== "allow") return { findings: [outcome], earlyAllow: false };
  }
  for (const validator of EARLY_VALIDATORS) {
    const outcome = validator.check(input);
    if (outcome === "allow") return { findings: [], earlyAllow: true };
    if (outcome) return { findings: [outcome], earlyAllow: false };
  }
  const deferred: Finding[] = [];
  for (const validator of MAIN_VALIDATORS) {
    const outcome = validator.check(input);
    if (!outcome || outcome === "allow") continue;
    if (!outcome.deferred) return { findings: [outcome], earlyAllow: false };
    deferred.push(outcome);
  }
  return { findings: deferred, earlyAllow: false };
}
