// Bash content rules (`Bash(git commit:*)`, `Bash(npm test)`) matched on recovered words, never
// on raw text: `git commit; rm -rf ~` is two commands and only the first is `git commit`.

import { locateGitSubcommand } from "../../shell/read-only/index.js";
import type { Field } from "../../shell/words/index.js";
import { commandBaseName } from "../../shell/words/index.js";
import type { PermissionBehavior, PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";

export interface BashRule {
  rule: PermissionRule;
  behavior: PermissionBehavior;
  words: string[];
  /** `prefix:*` / `prefix *`: the command's words start with these. Otherwise exact. */
  prefix: boolean;
  /** A `*` inside the pattern: matched against the words joined by single spaces. */
  wildcard: RegExp | undefined;
}

const BASH_TOOL_NAMES = new Set(["Bash"]);

export function bashRulesOf(context: ToolPermissionContext): BashRule[] {
  const rules: BashRule[] = [];
  for (const behavior of ["deny", "ask", "allow"] as const) {
    for (const rule of context.rules[behavior]) {
      if (context.managedRulesOnly && rule.source !== "policySettings") continue;
      if (!BASH_TOOL_NAMES.has(rule.value.toolName) || rule.value.ruleContent === undefined) continue;
      const parsed = bashRuleFromContent(rule.value.ruleContent);
      if (parsed) rules.push({ rule, behavior, ...parsed });
    }
  }
  return rules;
}

/** A Bash rule's content (`git commit:*`) as words to match; also hooks' `if` conditions. */
export function bashRuleFromContent(content: string): Omit<BashRule, "rule" | "behavior"> | undefined {
  let text = content.trim();
  let prefix = false;
  if (text.endsWith(":*")) {
    prefix = true;
    text = text.slice(0, -2).trimEnd();
  } else if (text.endsWith(" *")) {
    prefix = true;
    text = text.slice(0, -2).trimEnd();
  }
  const words = splitRuleWords(text);
  if (words.length === 0) return undefined;
  let wildcard: RegExp | undefined;
  if (text.includes("*")) {
    const pattern = words.map((w) => w.split("*").map(escapeRegExp).join("[^\\n]*")).join(" ");
    wildcard = new RegExp(`^${pattern}${prefix ? "( .*)?" : ""}$`, "s");
  }
  return { words, prefix, wildcard };
}

/** Rule text is the user's own configuration: plain blank splitting with simple quote removal. */
function splitRuleWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether a rule matches one argv: words compared one by one, only literal words count. */
export function ruleMatchesWords(rule: BashRule, words: Field[]): boolean {
  if (rule.wildcard) {
    if (!words.every((w) => w.literal)) return false;
    return rule.wildcard.test(words.map((w) => w.value).join(" "));
  }
  if (words.length < rule.words.length) return false;
  if (!rule.prefix && words.length !== rule.words.length) return false;
  for (let i = 0; i < rule.words.length; i += 1) {
    const word = words[i] as Field;
    if (!word.literal || word.value !== rule.words[i]) return false;
  }
  return true;
}

/** Aliases defined with `-c alias.NAME=VALUE` among git's global options (shell aliases, `!...`, are nested scripts). */
function inlineGitAliases(globals: Field[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (let i = 0; i < globals.length; i += 1) {
    const word = globals[i] as Field;
    const setting =
      word.value === "-c"
        ? globals[i + 1]
        : word.value.startsWith("-c")
          ? { ...word, value: word.value.slice(2) }
          : undefined;
    const match = setting?.literal ? /^alias\.([^=]+)=([^!].*)$/is.exec(setting.value) : null;
    if (match?.[1] && match[2]) aliases.set(match[1], match[2]);
  }
  return aliases;
}

/**
 * Spellings of one argv that run the same program, for deny matching only: path basenames
 * (`/bin/rm`), zsh's `=rm`, and git/npm global options before the subcommand
 * (`git -C . push`, `npm --loglevel=silent publish`).
 */
export function denyVariants(words: Field[]): Field[][] {
  const head = words[0];
  if (!head?.literal) return [words];
  const variants: Field[][] = [words];
  let name = head.value;
  if (name.startsWith("=") && name.length > 1) name = name.slice(1);
  name = commandBaseName(name);
  const renamed = name === head.value ? words : [{ ...head, value: name }, ...words.slice(1)];
  if (renamed !== words) variants.push(renamed);
  if (name === "git") {
    const { subcommandIndex } = locateGitSubcommand(renamed);
    if (subcommandIndex > 1) variants.push([renamed[0] as Field, ...renamed.slice(subcommandIndex)]);
    // `git -c alias.x=push x` runs `git push`: the alias, defined on the same line, is expanded.
    const sub = renamed[subcommandIndex];
    const expansion = sub?.literal ? inlineGitAliases(renamed.slice(1, subcommandIndex)).get(sub.value) : undefined;
    if (expansion) {
      const words = expansion.split(/\s+/).filter(Boolean);
      const expanded = words.map(
        (value): Field => ({ value, literal: true, glob: false, quoted: false, source: value }),
      );
      variants.push([renamed[0] as Field, ...expanded, ...renamed.slice(subcommandIndex + 1)]);
    }
  }
  if (name === "npm" || name === "npx" || name === "yarn" || name === "pnpm") {
    // Whether `--flag value` takes the next word is unknown here; both readings are tried.
    let i = 1;
    while (i < renamed.length && (renamed[i]?.value ?? "").startsWith("-")) {
      i += 1;
      variants.push([renamed[0] as Field, ...renamed.slice(i)]);
      if (!(renamed[i - 1]?.value ?? "").includes("=") && i < renamed.length)
        variants.push([renamed[0] as Field, ...renamed.slice(i + 1)]);
    }
  }
  return variants;
}
