// Turns an analysis into the Bash tool's say on one command: deny when a deny rule meets any
// command bash would run; ask (bypass-proof) for content ask rules and safety findings; allow when
// every part is read-only or covered by an allow rule and nothing was found; passthrough else.

import { dirname } from "node:path";
import { isDirectory } from "../../fs/path-kind.js";
import type { ScriptAnalysis } from "../../shell/analysis/index.js";
import { type CommandPart, isDangerousEnvVar, isSafeEnvVar, resolveWordPath } from "../../shell/commands/index.js";
import type { SimpleCommand } from "../../shell/parse/index.js";
import { classifyReadOnly } from "../../shell/read-only/index.js";
import type { Field } from "../../shell/words/index.js";
import type { PermissionResult, PermissionUpdate, ToolPermissionContext } from "../../tool/permission-types.js";
import { addFoldersSuggestion } from "../filesystem/index.js";
import { isFileEditInside, redirectsWriteInside } from "./accept-edits.js";
import {
  configuredAliasDecision,
  denialOf,
  denyWithoutAnalysis,
  firstMatch,
  ruleWordsPassedOn,
  safetyAsk,
} from "./deny-match.js";
import { fileRuleDecision } from "./file-rules.js";
import { gitConfigObjection } from "./git-read-only.js";
import { linkedReadOutside, linkOutsideUnder } from "./link-reads.js";
import { isReadableWithoutPrompt } from "./paths.js";
import { findProtectedWrite } from "./protected-writes.js";
import { beyondRule } from "./rule-scope.js";
import { type BashRule, bashRulesOf, ruleMatchesWords } from "./rules.js";
import { secretExfiltrationReason } from "./secret-exfiltration.js";
import { suggestionsFor } from "./suggestions.js";

/** `$API_KEY`, `${GITHUB_TOKEN}`...: printing them hands a secret to the model. */
const SECRET_VARIABLE =
  /\$\{?[A-Za-z0-9_]*(KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH(?!OR)|PRIVATE|COOKIE|SESSION)[A-Za-z0-9_]*/i;

/** Above this many simple commands nobody can review the list; the command asks. */
export const MAX_SUBCOMMANDS_FOR_ALLOW = 100;

export function decideBashPermission(analysis: ScriptAnalysis, context: ToolPermissionContext): PermissionResult {
  const rules = bashRulesOf(context);
  const denyRules = rules.filter((r) => r.behavior === "deny");
  const askRules = rules.filter((r) => r.behavior === "ask");
  const allowRules = rules.filter((r) => r.behavior === "allow");

  // Deny first: a deny can only make the answer stricter, so it is checked on every recoverable
  // part before any finding turns the command into a question.
  const denied = firstMatch(denyRules, analysis, true);
  if (denied) return denialOf(denied);
  const asked = firstMatch(askRules, analysis, false);
  const askedPassedOn = asked || askRules.length === 0 ? undefined : ruleWordsPassedOn(analysis, askRules);
  if (askedPassedOn) {
    return {
      behavior: "ask",
      message: `The rule Bash(${askedPassedOn.rule.rule.value.ruleContent}) asks before running \`${askedPassedOn.words}\`, which \`${askedPassedOn.program}\` is given and may run as a command.`,
      decisionReason: { type: "rule", rule: askedPassedOn.rule.rule },
    };
  }
  if (asked) {
    const suggestions = suggestionsFor(firstLineParts(analysis, analysis.parts), redirectsInput(analysis));
    return {
      behavior: "ask",
      message: `The rule Bash(${asked.rule.rule.value.ruleContent}) asks before running \`${asked.words}\`.`,
      decisionReason: { type: "rule", rule: asked.rule.rule },
      ...(suggestions.length > 0 ? { suggestions } : {}),
    };
  }
  // The file tools' path rules hold for the files the command visibly reads and writes.
  const byFileRules = fileRuleDecision(analysis, context);
  if (byFileRules?.behavior === "deny") return byFileRules;
  // A deny rule names what the user never wants run. Where a part runs code the analysis cannot
  // read (an interpreter's program, a script file, a variable the shell executes), no allow rule or
  // mode can vouch that it stays clear of the denied commands: it asks.
  if (denyRules.length > 0) {
    const aliased = configuredAliasDecision(analysis, denyRules);
    if (aliased) return aliased;
    const hidden = analysis.parts.find((p) => p.hidden !== undefined);
    if (hidden) {
      const names = denyRules.map((r) => `Bash(${r.rule.value.ruleContent})`).join(", ");
      return safetyAsk(
        `${hidden.hidden} (in \`${hidden.command.source}\`), and deny rules are in force (${names}): the analysis cannot see whether it runs a denied command`,
      );
    }
    const passedOn = ruleWordsPassedOn(analysis, denyRules);
    if (passedOn) {
      return safetyAsk(
        `\`${passedOn.program}\` is given \`${passedOn.words}\`, which the deny rule Bash(${passedOn.rule.rule.value.ruleContent}) refuses, and it may run it as a command (in \`${passedOn.source}\`)`,
      );
    }
  }
  if (byFileRules) return byFileRules;
  if (analysis.script.trim() === "")
    return { behavior: "allow", decisionReason: { type: "other", reason: "empty command" } };
  const exfiltration = secretExfiltrationReason(analysis);
  if (exfiltration) return safetyAsk(exfiltration);

  const grave = analysis.validation.findings.find((f) => !f.deferred);
  if (grave) return safetyAsk(`${grave.message} (check ${grave.id}, ${grave.validator})`);
  if (analysis.incomplete) return safetyAsk("A nested shell script could not be parsed completely.");
  const protectedWrite = findProtectedWrite(analysis, context);
  if (protectedWrite) return safetyAsk(`The command writes to a protected path: ${protectedWrite}`);

  const blocked: CommandPart[] = [];
  const blockedSet = new Set<CommandPart>();
  let reason = "";
  let usedRule: BashRule | undefined;
  let usedMode = false;
  const outsideParts = new Map<CommandPart, string | undefined>();
  if (SECRET_VARIABLE.test(analysis.script)) {
    reason = "it expands a variable that looks like a secret";
    blocked.push(...analysis.parts);
    for (const part of analysis.parts) blockedSet.add(part);
  }
  if (analysis.structure.functionNames.size > 0) {
    reason ||= "the command defines shell functions";
    for (const part of analysis.parts) {
      if (!blockedSet.has(part)) blocked.push(part);
      blockedSet.add(part);
    }
  }
  // Each directory is checked once per decision: the check follows symlinks on disk.
  const cwdChecks = new Map<string, boolean>();
  const cwdInside = (cwd: string): boolean => {
    let inside = cwdChecks.get(cwd);
    if (inside === undefined) {
      inside = isReadableWithoutPrompt(literalWord(cwd), "/", context);
      cwdChecks.set(cwd, inside);
    }
    return inside;
  };
  for (const part of analysis.parts) {
    if (blockedSet.has(part)) continue;
    const verdict = judgePart(part, allowRules, context, cwdInside);
    if (verdict.allowed) {
      usedRule ??= verdict.rule;
      if (verdict.byMode) usedMode = true;
      continue;
    }
    blocked.push(part);
    blockedSet.add(part);
    reason ||= verdict.reason;
    if (verdict.outside) outsideParts.set(part, verdict.outside.at);
  }
  if (analysis.parts.length > MAX_SUBCOMMANDS_FOR_ALLOW) {
    reason ||= `the command has ${analysis.parts.length} subcommands`;
    if (blocked.length === 0) blocked.push(...analysis.parts.slice(0, 1));
  }
  // In acceptEdits mode a redirection into the working directories is an accepted edit.
  const editsAccepted = context.mode === "acceptEdits" && redirectsWriteInside(analysis.structure.redirects, context);
  const deferred = analysis.validation.findings.filter((f) => f.deferred && !(editsAccepted && f.id === 10));
  if (editsAccepted && deferred.length < analysis.validation.findings.filter((f) => f.deferred).length) usedMode = true;
  if (blocked.length === 0 && deferred.length === 0) {
    return {
      behavior: "allow",
      decisionReason: usedRule
        ? { type: "rule", rule: usedRule.rule }
        : usedMode
          ? { type: "mode", mode: "acceptEdits" }
          : { type: "other", reason: "every part of the command is read-only" },
    };
  }
  const why = reason || deferred.map((f) => f.message).join(" ");
  const suggestions = [
    // A multi-line command is offered a rule for its first line only, as a heredoc is for the
    // command that opens it: later lines are what a person is least likely to have read. When every
    // part is allowed already, what stops the command is a deferred finding, which no rule for its
    // parts clears: none is offered.
    // A rule names a top-level command; a nested script's commands (`sh -c 'make all'`) are judged
    // on their own, so while one of them still needs approval no rule would stop the question.
    // A part held back by a place outside the working directories is cleared by adding that
    // folder, never by a rule for the command (`Bash(cat:*)` still asks for `cat /etc/x`); when
    // the place is known only at run time nothing offered would stop the question.
    ...(blocked.length > 0 && blocked.every((p) => p.depth === 0) && outsideFoldersKnown(outsideParts)
      ? [
          ...suggestionsFor(
            firstLineParts(
              analysis,
              blocked.filter((p) => !outsideParts.has(p)),
            ),
            redirectsInput(analysis),
          ),
          ...outsideFolderSuggestions(outsideParts),
        ]
      : []),
    // A redirection into the working directories is an edit: acceptEdits lets it through.
    ...(deferred.some((f) => f.id === 10) && redirectsWriteInside(analysis.structure.redirects, context)
      ? [{ type: "setMode" as const, mode: "acceptEdits" as const, destination: "session" as const }]
      : []),
  ];
  return {
    behavior: "passthrough",
    message: `This command needs approval: ${why}`,
    decisionReason: { type: "other", reason: why },
    ...(suggestions.length > 0 ? { suggestions } : {}),
  };
}

function outsideFoldersKnown(outside: Map<CommandPart, string | undefined>): boolean {
  return [...outside.values()].every((at) => at !== undefined);
}

/** Adding the folder of each outside place (the place itself when it is a folder) for the session. */
function outsideFolderSuggestions(outside: Map<CommandPart, string | undefined>): PermissionUpdate[] {
  const folders: string[] = [];
  for (const at of outside.values()) if (at !== undefined) folders.push(isDirectory(at) ? at : dirname(at));
  return addFoldersSuggestion(folders);
}

/** Whether anything in the script reads a file, heredoc or string on an input descriptor. */
function redirectsInput(analysis: ScriptAnalysis): boolean {
  return analysis.structure.redirects.some((r) => r.operator.includes("<"));
}

function firstLineParts(analysis: ScriptAnalysis, parts: CommandPart[]): CommandPart[] {
  const firstLineEnd = firstUnquotedNewline(analysis);
  return parts.filter((p) => p.depth === 0 && p.command.startIndex < firstLineEnd);
}

function firstUnquotedNewline(analysis: ScriptAnalysis): number {
  const finding = analysis.validation.findings.find((f) => f.id === 7 && f.deferred);
  if (!finding) return Number.POSITIVE_INFINITY;
  const index = analysis.script.search(/\n/);
  return index === -1 ? Number.POSITIVE_INFINITY : index;
}

/** A command the analysis cannot vouch for (`reason` says why): deny rules still hold, anything else is asked about. */
export function decideWithoutAnalysis(
  command: string,
  context: ToolPermissionContext,
  reason: string,
): PermissionResult {
  return denyWithoutAnalysis(command, context) ?? safetyAsk(reason);
}

type PartVerdict =
  | { allowed: true; rule?: BashRule; byMode?: boolean }
  // `outside`: the part is held back by a place outside the working directories, which no allow
  // rule clears; `at` is that place (absolute) when it is known before the command runs.
  | { allowed: false; reason: string; outside?: { at?: string } };

function judgePart(
  part: CommandPart,
  allowRules: BashRule[],
  context: ToolPermissionContext,
  cwdInside: (cwd: string) => boolean,
): PartVerdict {
  const { command } = part;
  // A rule written with the assignments (`Bash(NODE_OPTIONS=--x npm test)`) is the user's
  // explicit consent to exactly those; otherwise only the safe list may be stripped.
  const spelledWithAssignments =
    command.assignments.length > 0 && command.kind === "command" ? withAssignments(part) : undefined;
  const ruleWithAssignments = spelledWithAssignments
    ? allowRules.find((r) => ruleMatchesWords(r, spelledWithAssignments))
    : undefined;
  const unsafeAssignment = command.assignments.find((a) =>
    command.kind === "assignment" ? isDangerousEnvVar(a.name) : !isSafeEnvVar(a.name),
  );
  if (unsafeAssignment && !ruleWithAssignments)
    return { allowed: false, reason: `it sets ${unsafeAssignment.name}, which can change what runs` };
  if (command.kind === "assignment") return { allowed: true };
  if (part.unwrapping.opaque) return { allowed: false, reason: part.unwrapping.opaque };
  // A `cd` elsewhere first means even an approved command would run against other files.
  if (command.cwd === undefined || !cwdInside(command.cwd)) {
    return {
      allowed: false,
      reason:
        command.cwd === undefined
          ? "it runs after a cd whose target is known only at run time"
          : `it runs in ${command.cwd}, outside the working directories`,
      outside: command.cwd === undefined ? {} : { at: resolveWordPath(literalWord(command.cwd), "/") },
    };
  }
  const deepest = [...part.unwrapping.views].reverse().find((v) => v.transparent);
  const verdict = classifyReadOnly(deepest?.words ?? command.words);
  if (verdict.readOnly && deepest?.words[0]?.value === "xargs") {
    if (!producesProjectPaths(command.stdinFrom))
      return { allowed: false, reason: "xargs reads its arguments from input that may name any file" };
    // The names are the project's, but one may be a link that leads outside it.
    const listed = command.stdinFrom?.cwd ?? command.cwd;
    const target = linkOutsideUnder(listed, context);
    if (target === "unchecked")
      return {
        allowed: false,
        reason: `xargs reads names listed under ${listed}, a folder too large or too deep to check where its links lead`,
      };
    if (target !== undefined)
      return {
        allowed: false,
        reason: `xargs reads names listed under ${listed}, where a link leads to ${target}, outside the working directories`,
        outside: { at: target },
      };
  }
  if (verdict.readOnly) {
    // Path constraints hold whether or not a rule names the command.
    const outside = verdict.paths.find((p) => !isReadableWithoutPrompt(p, command.cwd, context));
    if (outside)
      return {
        allowed: false,
        // A word known only at run time (`"$f"`) may be outside: say so, not that it is.
        reason: outside.literal
          ? `it reads ${outside.value}, outside the working directories`
          : `it reads ${outside.source}, a path known only when it runs, which may be outside the working directories`,
        outside: { at: outside.literal ? resolveWordPath(outside, command.cwd) : undefined },
      };
    const input = command.redirects.find(
      (r) => r.target && r.operator === "<" && !isReadableWithoutPrompt(r.target, command.cwd, context),
    );
    if (input?.target)
      return {
        allowed: false,
        reason: `it reads ${input.target.value}, outside the working directories`,
        outside: { at: input.target.literal ? resolveWordPath(input.target, command.cwd) : undefined },
      };
    // Bash expands a glob in an input redirection too (`cat < d*/key` reads the one match).
    const inputs = command.redirects.flatMap((r) => (r.operator === "<" && r.target ? [r.target] : []));
    const linked =
      linkedReadOutside(deepest?.words ?? command.words, verdict.paths, command.cwd, context) ??
      linkedReadOutside([], inputs, command.cwd, context);
    if (linked) return { allowed: false, reason: linked.reason, outside: { at: linked.at } };
    const gitObjection = deepest ? gitConfigObjection(deepest.words, command.cwd) : undefined;
    if (gitObjection) return { allowed: false, reason: gitObjection };
    return { allowed: true };
  }
  if (ruleWithAssignments) return { allowed: true, rule: ruleWithAssignments };
  let notGranted: string | undefined;
  for (const view of part.unwrapping.views) {
    if (!view.transparent) break;
    const rule = allowRules.find((r) => ruleMatchesWords(r, view.words));
    if (!rule) continue;
    // The rule names a prefix; what the arguments smuggle in (on the view it matched, or on the
    // command the wrappers run) is not part of it.
    notGranted =
      beyondRule(rule, view.words, command.cwd) ??
      (deepest && deepest !== view ? beyondRule(rule, deepest.words, command.cwd) : undefined);
    if (!notGranted) return { allowed: true, rule };
    break;
  }
  if (context.mode === "acceptEdits" && deepest && isFileEditInside(deepest.words, command.cwd, context)) {
    return { allowed: true, byMode: true };
  }
  return { allowed: false, reason: notGranted ?? verdict.reason };
}

/**
 * Commands whose output is file names under the directory they search, so a read-only command
 * fed those names by xargs stays inside the checked paths (`echo ~/.ssh/id_rsa | xargs cat`
 * would not).
 */
function producesProjectPaths(producer: SimpleCommand | undefined): boolean {
  const words = producer?.words.map((w) => w.value) ?? [];
  const [name, sub] = words;
  if (name === "find" || name === "fd" || name === "ls") return true;
  if (name === "git")
    return (
      sub === "ls-files" ||
      sub === "grep" ||
      (sub === "diff" && words.some((w) => w === "--name-only" || w === "--name-status"))
    );
  if (name === "rg") return words.some((w) => w === "--files" || w === "-l" || w === "--files-with-matches");
  if (name === "grep") return words.some((w) => /^-[a-zA-Z]*[lL]/.test(w) || w === "--files-with-matches");
  return false;
}

function withAssignments(part: CommandPart): Field[] {
  const prefix = part.command.assignments.map(
    (a): Field => ({
      value: `${a.name}=${a.value.value}`,
      literal: a.value.literal,
      glob: false,
      quoted: a.value.quoted,
      source: a.source,
    }),
  );
  return [...prefix, ...part.command.words];
}

function literalWord(value: string): Field {
  return { value, literal: true, glob: false, quoted: false, source: value };
}
