// Bash content rules (`Bash(git commit:*)`, `Bash(npm test)`) matched on recovered words, never
// on raw text: `git commit; rm -rf ~` is two commands and only the first is `git commit`.

import { locateGitSubcommand } from "../../shell/read-only/index.js";
import type { Field } from "../../shell/words/index.js";
import { commandBaseName } from "../../shell/words/index.js";
import type { PermissionBehavior, PermissionRule, ToolPermissionContext } from "../../tool/permission-types.js";

export interface BashRule {
  rule: PermissionRule;
  behavior: PermissionBehavior;
  /** The rule's words; a `\*` of the rule is GLOB_STAR in them (see bashRuleFromContent). */
  words: string[];
  /** `prefix:*` / `prefix *`: the command's words start with these. Otherwise exact. */
  prefix: boolean;
  /** A `*` inside the pattern: matched against the words joined by single spaces. */
  wildcard: RegExp | undefined;
}

/**
 * A rule's `\*` once read: the command's own `*`, written unquoted (a glob the shell expands, as
 * in `ls *.txt`), matched as that very text and never as a wildcard. Claude Code's rules escape a
 * literal star the same way.
 */
const GLOB_STAR = "\u0000";

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

/** Whether a Bash rule's content holds a wildcard: a `*` not escaped as `\*` (the `:*` suffix counts). */
export function hasRuleWildcard(content: string): boolean {
  return /(^|[^\\])(\\\\)*\*/.test(content);
}

/**
 * A Bash rule's content (`git commit:*`) as words to match; also hooks' `if` conditions. Outside
 * quotes `\*` is the command's own unquoted `*` (`Bash(ls \*.txt)` allows `ls *.txt` exactly)
 * and `\\` a backslash; any other `*` is a wildcard.
 */
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
  if (words.some((word) => word.includes("*"))) {
    const pattern = words
      .map((w) =>
        w
          .split("*")
          .map((piece) => escapeRegExp(piece).replaceAll(GLOB_STAR, "\\*"))
          .join("[^\\n]*"),
      )
      .join(" ");
    wildcard = new RegExp(`^${pattern}${prefix ? "( .*)?" : ""}$`, "s");
  }
  return { words, prefix, wildcard };
}

/**
 * Rule text is the user's own configuration: plain blank splitting with simple quote removal; in
 * an unquoted word `\*` is GLOB_STAR and `\\` a backslash.
 */
function splitRuleWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    const bare = match[3];
    words.push(bare === undefined ? (match[1] ?? match[2] ?? "") : unescapeBare(bare));
  }
  return words;
}

function unescapeBare(word: string): string {
  return word.replace(/\\([*\\])/g, (_, char: string) => (char === "*" ? GLOB_STAR : "\\"));
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
    if (!wordMatches(words[i] as Field, rule.words[i] as string, rule.behavior === "allow")) return false;
  }
  return true;
}

/**
 * One word against one rule word. For an allow rule (`strict`) a glob the shell expands matches
 * only a rule word that spells it as a glob (`\*.txt` for `*.txt`, written wholly unquoted, so
 * every `*` in it is expanded), and that rule word matches nothing else: the rule never allows
 * more than its command (`'*.txt'`, quoted, names one file; `ls file?.txt` may name many). A deny
 * or ask rule matches the word's text whichever way it was written, so it never catches less.
 */
function wordMatches(word: Field, ruleWord: string, strict: boolean): boolean {
  if (!word.literal) return false;
  const spellsGlob = ruleWord.includes(GLOB_STAR);
  const text = spellsGlob ? ruleWord.replaceAll(GLOB_STAR, "*") : ruleWord;
  if (word.value !== text) return false;
  if (!strict) return true;
  return spellsGlob ? word.glob && !word.quoted : !word.glob;
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
