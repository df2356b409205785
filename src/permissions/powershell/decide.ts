// The permission engine's say on a PowerShell script, built on its analysis (src/shell/powershell/):
// deny when a deny rule meets any command the script runs (in a pipeline, a script block, a
// sub-expression); the file tools' path rules on what it visibly reads and writes; ask (even in
// bypass mode) for what runs code the analysis cannot read, reaches the network, or prints a
// secret; allow when every command only reads inside the working directories or an allow rule
// names it; passthrough (the mode decides, else ask) for the rest.
import { pathsToCheck } from "../../fs/real-path.js";
import {
  classOfCmdlet,
  NATIVE_ON_UNIX,
  type PsAnalysis,
  type PsCommand,
  readsPaths,
  WHOLE_TREE_PARAMETERS,
  writesPaths,
} from "../../shell/powershell/index.js";
import { classifyReadOnly } from "../../shell/read-only/index.js";
import type { Field } from "../../shell/words/index.js";
import type { PermissionResult, PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";
import { isProtectedWrite } from "../bash/paths.js";
import { isInsideWorkingDirectories, READ_RULE_NAME, WRITE_RULE_NAME } from "../filesystem/index.js";
import { describeRule, findMatchingPathRule, findPathRuleInside } from "../rules/index.js";
import { listedReadOutside, wildcardReadOutside } from "./link-reads.js";
import { isEnvironmentDrive, type PsPath, patternValues, placeOf, psPathOf, withWildcardMatches } from "./paths.js";
import { commandsPassedOn, POWERSHELL_TOOL_NAME, type PsRule, powerShellRulesOf, ruleMatchesCommand } from "./rules.js";

/** `-FollowSymlink`: a listing that descends into linked folders. */
const FOLLOW_PARAMETERS = new Set(["followsymlink"]);

/** Above this many commands nobody can review the list; the script asks. */
const MAX_COMMANDS_FOR_ALLOW = 100;

function safetyAsk(reason: string): PermissionResult {
  return {
    behavior: "ask",
    message: `This PowerShell command needs a human to look at it: ${reason}`,
    decisionReason: { type: "safetyCheck", reason },
  };
}

function ruleName(rule: PsRule): string {
  return `${POWERSHELL_TOOL_NAME}(${rule.rule.value.ruleContent})`;
}

export function decidePowerShellPermission(
  analysis: PsAnalysis,
  context: ToolPermissionContext,
  cwd: string,
): PermissionResult {
  const rules = powerShellRulesOf(context);
  const denyRules = rules.filter((r) => r.behavior === "deny");
  const askRules = rules.filter((r) => r.behavior === "ask");
  const allowRules = rules.filter((r) => r.behavior === "allow");

  // Deny first, on every command recovered, even from a script the grammar only partly read.
  for (const command of [...analysis.commands, ...analysis.fallbackCommands]) {
    const denied = denyRules.find((rule) => ruleMatchesCommand(rule, command));
    if (denied) {
      return {
        behavior: "deny",
        message: `Permission to run this command was denied by the rule ${ruleName(denied)} (it matches \`${command.source.trim()}\`).`,
        decisionReason: { type: "rule", rule: denied.rule },
      };
    }
  }
  const byFileRules = fileRuleDecision(analysis, context, cwd);
  if (byFileRules?.behavior === "deny") return byFileRules;
  if (analysis.parseError) return safetyAsk(analysis.parseError);
  // Where the script runs code the analysis cannot read, no rule can vouch that it stays clear of
  // a denied command.
  const opaque = opaqueReason(analysis);
  if (opaque && denyRules.length > 0) {
    return safetyAsk(`${opaque}, and deny rules are in force (${denyRules.map(ruleName).join(", ")})`);
  }
  // A program not known as read-only may run what it is given (`cmd /c del x`, `chronic rm x`):
  // words that a deny or ask rule names make it ask, in every mode.
  const passedOn = ruleWordsPassedOn(analysis, [...denyRules, ...askRules]);
  if (passedOn) {
    const { rule, command, given } = passedOn;
    const what = `\`${command.name}\` is given \`${given}\`, which the rule ${ruleName(rule)} names, and it may run it as a command`;
    return rule.behavior === "deny"
      ? safetyAsk(what)
      : ruleAsk(`This PowerShell command needs approval: ${what}.`, rule.rule);
  }
  for (const command of analysis.commands) {
    const asked = askRules.find((rule) => ruleMatchesCommand(rule, command));
    if (asked) {
      return {
        behavior: "ask",
        message: `The rule ${ruleName(asked)} asks before running \`${command.source.trim()}\`.`,
        decisionReason: { type: "rule", rule: asked.rule },
      };
    }
  }
  if (byFileRules) return byFileRules;
  if (analysis.script.trim() === "")
    return { behavior: "allow", decisionReason: { type: "other", reason: "empty command" } };
  if (analysis.findings[0]) return safetyAsk(analysis.findings[0]);
  if (analysis.secretVariables[0])
    return safetyAsk(`it reads $env:${analysis.secretVariables[0]}, which looks like a secret, into the output`);
  const written = writeTargets(analysis, cwd);
  const isProtected = (path: string) => isProtectedWrite(path, context);
  const protectedWrite = written.find(
    (t) => t !== undefined && t.kind === "file" && (t.unlisted === true || t.paths.some(isProtected)),
  );
  if (protectedWrite?.kind === "file")
    return safetyAsk(
      `it writes to a protected path: ${protectedWrite.paths.find(isProtected) ?? `${protectedWrite.paths[0]} (a wildcard with more matches than can be checked)`}`,
    );
  // `Set-Content function:ls {...}`, `'x' > variable:PSDefaultParameterValues`, `env:PATH`: what
  // such a write changes is how later commands resolve and run, not a file.
  const providerWrite = written.find((t) => t?.kind === "provider");
  if (providerWrite?.kind === "provider")
    return safetyAsk(
      `it writes to PowerShell's ${providerWrite.drive}: drive, which is no file and can change what runs`,
    );
  if (analysis.commands.length > MAX_COMMANDS_FOR_ALLOW)
    return safetyAsk(`it runs ${analysis.commands.length} commands, too many to review`);

  let reason = "";
  let usedRule: PermissionRule | undefined;
  for (const command of analysis.commands) {
    const verdict = judgeCommand(command, allowRules, context, cwd);
    if (verdict.allowed) {
      usedRule ??= verdict.rule;
      continue;
    }
    if (verdict.safety) return safetyAsk(verdict.safety);
    reason ||= verdict.reason;
  }
  const unknownWrite = [...analysis.redirects, ...analysis.commands.flatMap((c) => c.redirects)].some((t) => t !== "");
  if (unknownWrite) reason ||= "it redirects output to a file";
  if (!reason) {
    return usedRule
      ? { behavior: "allow", decisionReason: { type: "rule", rule: usedRule } }
      : { behavior: "allow", decisionReason: { type: "other", reason: "every command only reads" } };
  }
  return {
    behavior: "passthrough",
    message: `PowerShell wants to run \`${analysis.script.trim().slice(0, 200)}\`: ${reason}.`,
    decisionReason: { type: "other", reason },
  };
}

/** The first non-read-only command given words that a rule of `rules` matches as a command. */
function ruleWordsPassedOn(
  analysis: PsAnalysis,
  rules: PsRule[],
): { rule: PsRule; command: PsCommand; given: string } | undefined {
  if (rules.length === 0) return undefined;
  for (const command of analysis.commands) {
    if (isReadOnlyCommand(command)) continue;
    for (const passed of commandsPassedOn(command)) {
      const rule = rules.find((r) => ruleMatchesCommand(r, passed));
      if (rule) return { rule, command, given: [passed.name, ...passed.args.map((a) => a.text)].join(" ") };
    }
  }
  return undefined;
}

/** Why part of the script is opaque to the analysis, or undefined. */
function opaqueReason(analysis: PsAnalysis): string | undefined {
  if (analysis.findings[0]) return analysis.findings[0];
  const runner = analysis.commands.find((c) => classOfCmdlet(c.canonical) === "runs-code");
  if (runner) return `\`${runner.source.trim()}\` runs code the analysis cannot read`;
  return undefined;
}

type Verdict = { allowed: true; rule?: PermissionRule } | { allowed: false; reason: string; safety?: string };

function judgeCommand(command: PsCommand, allowRules: PsRule[], context: ToolPermissionContext, cwd: string): Verdict {
  const kind = classOfCmdlet(command.canonical);
  // Code runners and the network ask whatever allow rule names them loosely: `Invoke-Expression`'s
  // argument, a process started, a URL fetched are not what a prefix rule's author could review.
  if (kind === "runs-code") {
    const exact = allowRules.find((r) => !r.prefix && !r.wildcard && ruleMatchesCommand(r, command));
    if (exact && command.args.every((a) => a.literal)) return { allowed: true, rule: exact.rule };
    return { allowed: false, reason: "", safety: `\`${command.source.trim()}\` runs code the analysis cannot read` };
  }
  const rule = allowRules.find((r) => ruleMatchesCommand(r, command));
  if (rule) {
    const beyond = beyondRule(rule, command);
    if (!beyond) return { allowed: true, rule: rule.rule };
    return { allowed: false, reason: beyond };
  }
  if (kind === "network")
    return { allowed: false, reason: "", safety: `\`${command.source.trim()}\` reaches the network` };
  if (!isReadOnlyCommand(command))
    return { allowed: false, reason: `\`${command.source.trim()}\` is not known to only read` };
  // A reader reads without a prompt only inside the working directories.
  if (!readsPaths(command.canonical)) return { allowed: true };
  const follows = command.args.some((a) => a.kind === "parameter" && isParameterPrefix(a.text, FOLLOW_PARAMETERS));
  const patterns = patternValues(command);
  const listed = listedReadOutside(command, patterns, follows, cwd, context);
  if (listed) return { allowed: false, reason: listed };
  for (const arg of command.args) {
    if (arg.kind !== "value") continue;
    if (!arg.literal)
      return { allowed: false, reason: `\`${command.source.trim()}\` reads a path known only at run time` };
    const place = placeOf(arg, patterns, cwd);
    if (place.kind === "provider") {
      const what = `\`${command.source.trim()}\` reads PowerShell's ${place.drive}: drive, not a file in the working directories`;
      // The environment drive holds the same secrets `$env:TOKEN` would print.
      if (isEnvironmentDrive(place.drive))
        return { allowed: false, reason: "", safety: `${what} (environment variables may hold secrets)` };
      return { allowed: false, reason: what };
    }
    if (!place.paths.every((p) => isInsideWorkingDirectories(p, context)))
      return {
        allowed: false,
        reason: `\`${command.source.trim()}\` reads ${arg.text}, outside the working directories`,
      };
    const linked = place.paths.map((p) => wildcardReadOutside(command, p, cwd, context)).find(Boolean);
    if (linked) return { allowed: false, reason: linked };
  }
  return { allowed: true };
}

/**
 * What a prefix rule does not grant: an argument known only at run time (a variable, a
 * sub-expression, a script block: the rule's author saw literal words), and the options the
 * read-only tables know to write or run programs (`git diff --output=...`) for native programs.
 */
function beyondRule(rule: PsRule, command: PsCommand): string | undefined {
  if (!rule.prefix && !rule.wildcard) return undefined;
  const opaque = command.args.find((a) => !a.literal);
  if (opaque) return `the rule ${ruleName(rule)} does not cover \`${opaque.text}\`, known only at run time`;
  if (classOfCmdlet(command.canonical) === "unknown") {
    const verdict = classifyReadOnly(fieldsOf(command));
    if (!verdict.readOnly && verdict.smuggled !== undefined && !rule.words.includes(verdict.smuggled))
      return `the rule ${ruleName(rule)} does not cover \`${verdict.smuggled}\`: ${verdict.reason}`;
  }
  return undefined;
}

function isReadOnlyCommand(command: PsCommand): boolean {
  if (!command.literalName) return false;
  if (classOfCmdlet(command.canonical) !== "read-only") return false;
  // `ForEach-Object Delete` / `-MemberName` calls a method by name: only script blocks are read.
  if (command.canonical === "foreach-object" && command.args.some((a) => !a.text.startsWith("{"))) return false;
  // On Linux and macOS `sort`, `ls`, `cat`... run the native program: it must be read-only too.
  const written = command.name.toLowerCase();
  if (NATIVE_ON_UNIX.has(written)) {
    if (!command.args.every((a) => a.literal)) return false;
    return classifyReadOnly(fieldsOf(command)).readOnly;
  }
  return true;
}

function fieldsOf(command: PsCommand): Field[] {
  const field = (value: string, literal = true): Field => ({
    value,
    literal,
    glob: false,
    quoted: false,
    source: value,
  });
  const name =
    command.name
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.exe$/i, "") ?? command.name;
  return [field(name), ...command.args.map((a) => field(a.text, a.literal))];
}

/** What the script writes: redirection targets and the values of writing cmdlets (undefined: unknown). */
function writeTargets(analysis: PsAnalysis, cwd: string): Array<PsPath | undefined> {
  const targets: Array<PsPath | undefined> = [];
  for (const target of [...analysis.redirects, ...analysis.commands.flatMap((c) => c.redirects)]) {
    if (target !== "") targets.push(target === undefined ? undefined : withWildcardMatches(psPathOf(target, cwd), cwd));
  }
  for (const command of analysis.commands) {
    if (!writesPaths(command.canonical)) continue;
    for (const arg of command.args) {
      if (arg.kind === "value")
        targets.push(arg.literal ? withWildcardMatches(psPathOf(arg.text, cwd), cwd) : undefined);
    }
  }
  return targets;
}

interface Access {
  path: string | undefined;
  verb: "read" | "write";
  whole: boolean;
}

/**
 * The file tools' path rules on what the script visibly reads and writes. Every literal value of a
 * reading cmdlet, or of a command the tables do not know (a native program), counts as a path it
 * may read: more candidates can only make the answer stricter. A path known only at run time, or
 * a script that changes directory, asks when path rules are in force.
 */
function fileRuleDecision(
  analysis: PsAnalysis,
  context: ToolPermissionContext,
  cwd: string,
): PermissionResult | undefined {
  const { deny, ask } = context.rules;
  const hasPathRules = (rules: readonly PermissionRule[]) =>
    rules.some((r) => r.value.ruleContent !== undefined && r.value.toolName !== POWERSHELL_TOOL_NAME);
  if (!hasPathRules(deny) && !hasPathRules(ask)) return undefined;
  const root = context.workingDirectories[0] ?? cwd;
  const accesses: Access[] = [];
  let movesDirectory = false;
  for (const command of analysis.commands) {
    if (["set-location", "push-location", "pop-location"].includes(command.canonical)) movesDirectory = true;
    const kind = classOfCmdlet(command.canonical);
    const reads = readsPaths(command.canonical) || kind === "unknown" || NATIVE_ON_UNIX.has(command.name.toLowerCase());
    const writes = writesPaths(command.canonical);
    if (!reads && !writes) continue;
    const whole =
      command.args.some((a) => a.kind === "parameter" && isParameterPrefix(a.text, WHOLE_TREE_PARAMETERS)) ||
      command.canonical === "get-childitem";
    for (const arg of command.args) {
      if (arg.kind !== "value") continue;
      if (!arg.literal) {
        if (readsPaths(command.canonical) || writes)
          accesses.push({ path: undefined, verb: writes ? "write" : "read", whole });
        continue;
      }
      // Every reading of the word (`secret\key.txt` is secret/key.txt to PowerShell) is checked.
      for (const path of filePaths(arg.text, cwd))
        accesses.push({ path, verb: writes ? "write" : "read", whole: whole || /[*?[]/.test(arg.text) });
    }
    if (readsPaths(command.canonical) && !command.args.some((a) => a.kind === "value"))
      accesses.push({ path: cwd, verb: "read", whole: true });
  }
  for (const target of [...analysis.redirects, ...analysis.commands.flatMap((c) => c.redirects)]) {
    if (target === undefined) accesses.push({ path: undefined, verb: "write", whole: false });
    else if (target !== "")
      for (const path of filePaths(target, cwd)) accesses.push({ path, verb: "write", whole: false });
  }
  let asked: PermissionResult | undefined;
  for (const access of accesses) {
    const names = [access.verb === "read" ? READ_RULE_NAME : WRITE_RULE_NAME];
    if (access.path === undefined) {
      asked ??= safetyAsk(`it ${access.verb}s a path known only at run time while path rules are in force`);
      continue;
    }
    const paths = pathsToCheck(access.path.replace(/[*?[].*$/, "").replace(/\/$/, "") || "/");
    const denied = findMatchingPathRule(deny, names, paths, root);
    if (denied) {
      return {
        behavior: "deny",
        message: `Permission to ${access.verb} ${access.path} has been denied by ${describeRule(denied)} (the command ${access.verb}s it).`,
        decisionReason: { type: "rule", rule: denied },
      };
    }
    if (access.whole) {
      const inside =
        findPathRuleInside(deny, names, paths, root, () => true) ??
        findPathRuleInside(ask, names, paths, root, () => true);
      if (inside)
        asked ??= ruleAsk(
          `The command ${access.verb}s every file under ${access.path}, and ${describeRule(inside)} covers a file there.`,
          inside,
        );
    }
    const askRule = findMatchingPathRule(ask, names, paths, root);
    if (askRule)
      asked ??= ruleAsk(
        `The command would ${access.verb} ${access.path}; ${describeRule(askRule)} says to ask.`,
        askRule,
      );
  }
  if (!asked && movesDirectory && accesses.length > 0)
    asked = safetyAsk("it changes directory, so its relative paths cannot be checked against the path rules");
  return asked;
}

/** The files a word may name; none for a drive that holds no files (judged apart from file rules). */
function filePaths(text: string, cwd: string): string[] {
  const place = psPathOf(text, cwd);
  return place.kind === "file" ? place.paths : [];
}

function ruleAsk(message: string, rule: PermissionRule): PermissionResult {
  return { behavior: "ask", message, decisionReason: { type: "rule", rule } };
}

/** `-Rec` is `-Recurse`: PowerShell takes any unambiguous prefix of a parameter's name. */
function isParameterPrefix(parameter: string, names: ReadonlySet<string>): boolean {
  const bare = parameter.replace(/^-+/, "").replace(/:$/, "").toLowerCase();
  if (bare.length === 0) return false;
  return [...names].some((name) => name === bare || (bare.length >= 2 && name.startsWith(bare)));
}
