// PowerShell content rules (`PowerShell(Get-Content:*)`, `PowerShell(git status)`) matched on the
// commands the analysis recovered, never on raw text. Command names compare by their canonical
// cmdlet (`PowerShell(rm:*)` and `PowerShell(Remove-Item:*)` both stop `del x`), case-insensitively
// as PowerShell resolves them.
import { canonicalCommandName, type PsCommand } from "../../shell/powershell/index.js";
import type { PermissionBehavior, PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";

export const POWERSHELL_TOOL_NAME = "PowerShell";

export interface PsRule {
  rule: PermissionRule;
  behavior: PermissionBehavior;
  /** The command name, canonical, then the rest as written. */
  words: string[];
  /** `prefix:*` / `prefix *`: the command starts with these words. Otherwise exact. */
  prefix: boolean;
  /** A `*` inside the pattern: matched against the words joined by single spaces. */
  wildcard: RegExp | undefined;
}

export function powerShellRulesOf(context: ToolPermissionContext): PsRule[] {
  const rules: PsRule[] = [];
  for (const behavior of ["deny", "ask", "allow"] as const) {
    for (const rule of context.rules[behavior]) {
      if (context.managedRulesOnly && rule.source !== "policySettings") continue;
      if (rule.value.toolName !== POWERSHELL_TOOL_NAME || rule.value.ruleContent === undefined) continue;
      const parsed = parseRuleContent(rule.value.ruleContent, behavior);
      if (parsed) rules.push({ rule, behavior, ...parsed });
    }
  }
  return rules;
}

function parseRuleContent(
  content: string,
  behavior: PermissionBehavior,
): Omit<PsRule, "rule" | "behavior"> | undefined {
  let text = content.trim();
  let prefix = false;
  if (text.endsWith(":*") || text.endsWith(" *")) {
    prefix = true;
    text = text.slice(0, -2).trimEnd();
  }
  const raw = [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
  if (raw.length === 0) return undefined;
  const words = [canonicalCommandName(raw[0] as string), ...raw.slice(1)];
  let wildcard: RegExp | undefined;
  if (text.includes("*")) {
    const pattern = words.map((w) => w.split("*").map(escapeRegExp).join("[^\\n]*")).join(" ");
    // Deny and ask rules match whatever the case (stricter); allow rules only as written.
    wildcard = new RegExp(`^${pattern}${prefix ? "( .*)?" : ""}$`, behavior === "allow" ? "s" : "is");
  }
  return { words, prefix, wildcard };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The spellings of one command a rule is compared with: its canonical name, and for a name given
 * by path (`/usr/bin/curl`, `C:\tools\curl.exe`) its bare program name too.
 */
function namesOf(command: PsCommand): string[] {
  const names = [command.canonical];
  const base =
    command.name
      .split(/[\\/]/)
      .pop()
      ?.toLowerCase()
      .replace(/\.exe$/, "") ?? "";
  if (base && base !== command.canonical) names.push(base, canonicalCommandName(base));
  return names;
}

/**
 * Whether a rule matches a command. A word known only at run time never matches a rule's word:
 * for deny and ask that is handled by the caller (an opaque argument asks when such rules exist).
 */
export function ruleMatchesCommand(rule: PsRule, command: PsCommand): boolean {
  if (!command.literalName) return false;
  const caseless = rule.behavior !== "allow";
  const same = (a: string, b: string) => (caseless ? a.toLowerCase() === b.toLowerCase() : a === b);
  return namesOf(command).some((name) => {
    if (rule.wildcard) {
      if (!command.args.every((a) => a.literal)) return false;
      return rule.wildcard.test([name, ...command.args.map((a) => a.text)].join(" "));
    }
    if (name !== rule.words[0]) return false;
    const rest = rule.words.slice(1);
    if (command.args.length < rest.length) return false;
    if (!rule.prefix && command.args.length !== rest.length) return false;
    return rest.every((word, i) => {
      const arg = command.args[i];
      // Parameters are case-insensitive in PowerShell whoever wrote the rule.
      return (
        arg?.literal === true &&
        (arg.kind === "parameter" ? arg.text.toLowerCase() === word.toLowerCase() : same(arg.text, word))
      );
    });
  });
}

/**
 * The commands `command` might run with its arguments: from each literal value argument on, that
 * word taken as a command name and the rest as its arguments (`cmd /c del x` gives `del x`,
 * `chronic rm x` gives `rm x`). For a program whose handling of its arguments is unknown.
 */
export function commandsPassedOn(command: PsCommand): PsCommand[] {
  const passed: PsCommand[] = [];
  command.args.forEach((arg, i) => {
    if (arg.kind !== "value" || !arg.literal || arg.text === "") return;
    passed.push({
      name: arg.text,
      canonical: canonicalCommandName(arg.text),
      literalName: true,
      args: command.args.slice(i + 1),
      redirects: [],
      source: command.source,
    });
  });
  return passed;
}
