// The in-process s/// must mean exactly what GNU sed means: each accepted script is run by the real
// sed on the same text and the results compared; scripts whose meaning is not proven are refused.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { applySubstitution, parseSubstitution } from "../../../../src/tools/bash/sed-edit/substitution.js";

const TEXT = [
  "const apiUrl = 'http://localhost:3000/api';",
  "  foo(bar, baz); foo(qux);",
  "version = 1.2.3",
  "path/to/file.txt and path/to/other.txt",
  "$HOME is ^not^ special [here]",
  "aaa bbb aaa",
  "",
  "tail without newline",
].join("\n");

function realSed(script: string, text: string, extended: boolean): string {
  return execFileSync("sed", [...(extended ? ["-E"] : []), "-e", script], {
    input: text,
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C.UTF-8" },
  });
}

const ACCEPTED: Array<[string, boolean]> = [
  ["s/foo/FOO/", false],
  ["s/foo/FOO/g", false],
  ["s|http://localhost:3000|https://example.com|g", false],
  ["s/path\\/to/PATH/g", false],
  ["s/1\\.2\\.3/2.0.0/", false],
  ["s/v.rsion/VERSION/", false],
  ["s/^  foo/  bar/", false],
  ["s/txt$/md/", false],
  ["s/a*b/X/g", false],
  ["s/[abq]x*/Z/g", false],
  ["s/[^a-z ]/_/g", false],
  ["s/\\$HOME/~/", false],
  ["s/\\[here\\]/(there)/", false],
  ["s/\\^not\\^/NOT/", false],
  ["s/foo/<&>/g", false],
  ["s/foo/a\\&b/", false],
  ["s/aaa/x\\ny/", false],
  ["s/a+ /A /g", true],
  ["s/ba?z/B/g", true],
  ["s#/to/#/from/#g", false],
  ["s/without/WITH/", false],
  ["s/*/star/", false],
];

describe("s/// simulated exactly as sed runs it", () => {
  for (const [script, extended] of ACCEPTED) {
    it(`${extended ? "-E " : ""}${script}`, () => {
      const substitution = parseSubstitution(script, extended);
      expect(substitution).toBeDefined();
      expect(applySubstitution(TEXT, substitution!)).toBe(realSed(script, TEXT, extended));
      expect(applySubstitution(`${TEXT}\n`, substitution!)).toBe(realSed(script, `${TEXT}\n`, extended));
    });
  }
});

describe("scripts whose meaning is not proven are refused", () => {
  const refused: Array<[string, boolean, string]> = [
    ["s/\\(foo\\)/\\1x/", false, "groups and back-references"],
    ["s/(a|b)/x/", true, "alternation"],
    ["s/a*b*/x/", false, "two quantifiers"],
    ["s/a*/x/g", false, "a pattern that matches the empty string"],
    ["s/foo/bar/I", false, "case folding"],
    ["s/foo/bar/2", false, "an occurrence number"],
    ["s/foo/bar/w out.txt", false, "writing another file"],
    ["s/foo/bar/e", false, "running the pattern space"],
    ["s/foo/bar/; s/a/b/", false, "several commands"],
    ["s/[[:alpha:]]/x/", false, "character classes"],
    ["s/foo/\\U&/", false, "case conversion"],
    ["s/\\w/x/", false, "GNU escapes"],
    ["s/[/]/x/", false, "the delimiter inside brackets"],
    ["y/abc/xyz/", false, "other commands"],
    ["s//x/", false, "the empty (previous) pattern"],
    ["s/a\\{2\\}/x/", false, "intervals"],
  ];
  for (const [script, extended, why] of refused) {
    it(`${script} (${why})`, () => {
      expect(parseSubstitution(script, extended)).toBeUndefined();
    });
  }
});
