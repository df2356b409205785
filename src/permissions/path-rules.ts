// Path rules for file tools, in gitignore style: `Read(./src/**)`, `Edit(~/notes/**)`,
// `Read(//etc/**)`, `Read(*.env)`. Where a pattern is anchored depends on how it starts:
//   `//x`  the filesystem root        `~/x`  the user's home
//   `/x`, `./x`, `a/b`  the rule's root (the project of the settings file it came from)
//   `x` (no slash)      any depth under the rule's root, as in .gitignore
// A pattern that names a folder covers everything inside it.
import { isAbsolute, relative, sep } from "node:path";
import picomatch from "picomatch";
import { userHome } from "../config/paths.js";
import type { PermissionRule } from "../tool/permission-types.js";

interface CompiledPathPattern {
  base: string;
  test: (relativePath: string) => boolean;
}

const compiled = new Map<string, CompiledPathPattern>();

export function compilePathPattern(pattern: string, root: string): CompiledPathPattern {
  const key = `${root}\0${pattern}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const { base, glob } = anchor(pattern, root);
  const body = glob.replace(/\/+$/, "");
  const globs = body === "" ? ["**"] : body.endsWith("/**") ? [body] : [body, `${body}/**`];
  const matcher = picomatch(globs, { dot: true });
  const entry: CompiledPathPattern = { base, test: (p) => matcher(p) };
  compiled.set(key, entry);
  return entry;
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

/** True when the absolute path lies under the pattern's base and matches it. */
export function pathMatchesPattern(absolutePath: string, pattern: string, root: string): boolean {
  const { base, test } = compilePathPattern(pattern, root);
  const rel = relative(base, absolutePath);
  if (rel === "") return test("");
  if (rel.startsWith("..") || isAbsolute(rel)) return false;
  return test(sep === "/" ? rel : rel.split(sep).join("/"));
}

/** The first content rule of these tools whose path pattern matches any of the paths. */
export function findMatchingPathRule(
  rules: readonly PermissionRule[],
  toolNames: readonly string[],
  paths: readonly string[],
  fallbackRoot: string,
): PermissionRule | undefined {
  for (const rule of rules) {
    const content = rule.value.ruleContent;
    if (content === undefined || !toolNames.includes(rule.value.toolName)) continue;
    const root = rule.root ?? fallbackRoot;
    if (paths.some((p) => pathMatchesPattern(p, content, root))) return rule;
  }
  return undefined;
}
