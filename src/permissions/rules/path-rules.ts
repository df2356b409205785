// Path rules for file tools, in gitignore style: `Read(./src/**)`, `Edit(~/notes/**)`,
// `Read(//etc/**)`, `Read(*.env)`. Where a pattern is anchored depends on how it starts:
//   `//x`  the filesystem root        `~/x`  the user's home
//   `/x`, `./x`, `a/b`  the rule's root (the project of the settings file it came from)
//   `x` (no slash)      any depth under the rule's root, as in .gitignore
// A pattern that names a folder covers everything inside it.
//
// Every file-tool call consults these, so patterns are compiled once per rule list into regular
// expressions, and the path relative to each distinct base is computed once per check.
import { isAbsolute, relative, sep } from "node:path";
import picomatch from "picomatch";
import { userHome } from "../../config/paths.js";
import type { PermissionRule } from "../../tool/permission-types.js";

interface CompiledPathRule {
  rule: PermissionRule;
  base: string;
  regex: RegExp;
}

function anchor(pattern: string, root: string): { base: string; glob: string } {
  if (pattern.startsWith("//")) return { base: "/", glob: pattern.slice(2) };
  if (pattern === "~" || pattern.startsWith("~/")) return { base: userHome(), glob: pattern.slice(2) };
  if (pattern.startsWith("./")) return { base: root, glob: pattern.slice(2) };
  if (pattern.startsWith("/")) return { base: root, glob: pattern.slice(1) };
  const inner = pattern.replace(/\/+$/, "");
  // gitignore: a pattern with no slash except a trailing one matches at any depth.
  return { base: root, glob: inner.includes("/") ? pattern : `**/${pattern}` };
}

const regexCache = new Map<string, RegExp>();

/** The pattern itself, or anything inside what it names. */
function globRegex(glob: string): RegExp {
  let regex = regexCache.get(glob);
  if (regex) return regex;
  const body = glob.replace(/\/+$/, "");
  const globs = body === "" ? ["**"] : body.endsWith("/**") ? [body] : [body, `${body}/**`];
  regex = new RegExp(globs.map((g) => `(?:${picomatch.makeRe(g, { dot: true }).source})`).join("|"));
  regexCache.set(glob, regex);
  return regex;
}

export function compilePathPattern(pattern: string, root: string): { base: string; regex: RegExp } {
  const { base, glob } = anchor(pattern, root);
  return { base, regex: globRegex(glob) };
}

/** Relative path from base in `/` form, or undefined when the path is not under base. */
function under(base: string, absolutePath: string): string | undefined {
  const rel = relative(base, absolutePath);
  if (rel === "") return "";
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** Compiled content rules of a rule list, per set of tool names, in the list's order. */
const compiledLists = new WeakMap<readonly PermissionRule[], Map<string, CompiledPathRule[]>>();

function compiledRules(
  rules: readonly PermissionRule[],
  toolNames: readonly string[],
  fallbackRoot: string,
): CompiledPathRule[] {
  let byTools = compiledLists.get(rules);
  if (!byTools) {
    byTools = new Map();
    compiledLists.set(rules, byTools);
  }
  const key = `${fallbackRoot}\0${toolNames.join("\0")}`;
  let list = byTools.get(key);
  if (!list) {
    list = [];
    for (const rule of rules) {
      const content = rule.value.ruleContent;
      if (content === undefined || !toolNames.includes(rule.value.toolName)) continue;
      list.push({ rule, ...compilePathPattern(content, rule.root ?? fallbackRoot) });
    }
    byTools.set(key, list);
  }
  return list;
}

/** The first content rule of these tools (highest precedence first) whose pattern matches any of the paths. */
export function findMatchingPathRule(
  rules: readonly PermissionRule[],
  toolNames: readonly string[],
  paths: readonly string[],
  fallbackRoot: string,
): PermissionRule | undefined {
  const compiled = compiledRules(rules, toolNames, fallbackRoot);
  if (compiled.length === 0) return undefined;
  const relatives = new Map<string, Array<string | undefined>>();
  for (const entry of compiled) {
    let rels = relatives.get(entry.base);
    if (!rels) {
      rels = paths.map((p) => under(entry.base, p));
      relatives.set(entry.base, rels);
    }
    for (const rel of rels) if (rel !== undefined && entry.regex.test(rel)) return entry.rule;
  }
  return undefined;
}

/** The literal folders a glob starts with (`config/*.yml` → `config`), before any wildcard. */
function fixedPrefix(glob: string): string {
  const fixed: string[] = [];
  for (const segment of glob.split("/")) {
    if (segment === "" || /[*?[\]{}!]/.test(segment)) break;
    fixed.push(segment);
  }
  return fixed.join("/");
}

/**
 * The first content rule of these tools whose pattern could match something under any of the
 * folders, for a command that reads a folder whole (`grep -r x dir`). A pattern naming one path
 * that does not exist covers nothing there; a wildcard pattern is taken to cover what it could.
 */
export function findPathRuleInside(
  rules: readonly PermissionRule[],
  toolNames: readonly string[],
  folders: readonly string[],
  fallbackRoot: string,
  exists: (path: string) => boolean,
): PermissionRule | undefined {
  for (const rule of rules) {
    const content = rule.value.ruleContent;
    if (content === undefined || !toolNames.includes(rule.value.toolName)) continue;
    const { base, glob } = anchor(content, rule.root ?? fallbackRoot);
    const prefixText = fixedPrefix(glob);
    const prefix = prefixText === "" ? base : `${base.replace(/\/+$/, "")}/${prefixText}`;
    const literal = prefixText === glob.replace(/\/+$/, "");
    if (literal && !exists(prefix)) continue;
    if (folders.some((folder) => under(folder, prefix) !== undefined || under(prefix, folder) !== undefined))
      return rule;
  }
  return undefined;
}
