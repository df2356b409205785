// Bash content rules (`Bash(npm run test:*)`, `Bash(git * --dry-run)`): how their text is parsed
// and how they meet a command's recovered words.
import { describe, expect, it } from "vitest";
import { bashRulesOf, denyVariants, ruleMatchesWords } from "../../../src/permissions/bash/rules.js";
import type { Field } from "../../../src/shell/words/index.js";
import { contextWith } from "../../shell/helpers.js";

const words = (...values: string[]): Field[] =>
  values.map((value) => ({ value, literal: true, glob: false, quoted: false, source: value }));

describe("rules", () => {
  const rules = bashRulesOf(
    contextWith({
      allow: [
        "Bash(npm run test:*)",
        "Bash(git status)",
        'Bash(echo "a b")',
        "Bash(git * --dry-run)",
        "Bash(make *)",
        "Read(./x)",
      ],
    }),
  );

  it("parses prefix, exact, quoted and wildcard contents, and ignores other tools", () => {
    expect(rules.map((r) => [r.words, r.prefix, Boolean(r.wildcard)])).toEqual([
      [["npm", "run", "test"], true, false],
      [["git", "status"], false, false],
      [["echo", "a b"], false, false],
      [["git", "*", "--dry-run"], false, true],
      [["make"], true, false],
    ]);
  });

  it("matches whole words: prefixes, exact commands, wildcards", () => {
    const [prefix, exact, quoted, wildcard, spaceStar] = rules;
    if (!prefix || !exact || !quoted || !wildcard || !spaceStar) throw new Error("rules missing");
    expect(ruleMatchesWords(prefix, words("npm", "run", "test"))).toBe(true);
    expect(ruleMatchesWords(prefix, words("npm", "run", "test", "--", "--ci"))).toBe(true);
    expect(ruleMatchesWords(prefix, words("npm", "run", "test-evil"))).toBe(false);
    expect(ruleMatchesWords(exact, words("git", "status"))).toBe(true);
    expect(ruleMatchesWords(exact, words("git", "status", "-s"))).toBe(false);
    expect(ruleMatchesWords(quoted, words("echo", "a b"))).toBe(true);
    expect(ruleMatchesWords(wildcard, words("git", "push", "origin", "--dry-run"))).toBe(true);
    expect(ruleMatchesWords(wildcard, words("git", "push", "origin"))).toBe(false);
    expect(ruleMatchesWords(spaceStar, words("make", "-j8"))).toBe(true);
  });

  it("never matches a word known only at run time", () => {
    const [prefix] = rules;
    if (!prefix) throw new Error("rule missing");
    const dynamic: Field[] = [
      ...words("npm", "run"),
      { value: "\u{FFFD}", literal: false, glob: false, quoted: false, source: "$X" },
    ];
    expect(ruleMatchesWords(prefix, dynamic)).toBe(false);
  });

  it("offers deny matching the spellings that run the same program", () => {
    const spellings = (...values: string[]) =>
      denyVariants(words(...values)).map((v) => v.map((w) => w.value).join(" "));
    expect(spellings("/usr/bin/git", "-C", "x", "--no-pager", "push")).toContain("git push");
    expect(spellings("=curl", "x")).toContain("curl x");
    expect(spellings("npm", "--loglevel", "silent", "publish")).toContain("npm publish");
  });
});
