// The small lexing pieces under the analysis: quote contexts, line continuations, ANSI-C
// decoding, brace expansion limits, rule parsing and matching, and the fallback splitter.
import { describe, expect, it } from "vitest";
import { decodeAnsiC } from "../../src/shell/ansi-c.js";
import { fallbackSimpleCommands } from "../../src/shell/fallback-lexer.js";
import { joinLineContinuations, QuoteContext, scanQuoteContexts } from "../../src/shell/quote-scan.js";
import { bashRulesOf, denyVariants, ruleMatchesWords } from "../../src/shell/rules.js";
import type { Field } from "../../src/shell/word-tokens.js";
import { contextWith } from "./helpers.js";

const words = (...values: string[]): Field[] =>
  values.map((value) => ({ value, literal: true, glob: false, quoted: false, source: value }));

describe("quote contexts", () => {
  it("tracks single, double, ANSI-C quotes and comments", () => {
    const text = `a 'b' "c" $'d' # e`;
    const contexts = scanQuoteContexts(text);
    expect(contexts[text.indexOf("b")]).toBe(QuoteContext.Single);
    expect(contexts[text.indexOf("c")]).toBe(QuoteContext.Double);
    expect(contexts[text.indexOf("d")]).toBe(QuoteContext.AnsiC);
    expect(contexts[text.indexOf("e")]).toBe(QuoteContext.Comment);
    expect(contexts[0]).toBe(QuoteContext.Unquoted);
  });

  it("does not start a comment at a # inside a word", () => {
    const text = "ls a#b";
    expect(scanQuoteContexts(text)[text.indexOf("b")]).toBe(QuoteContext.Unquoted);
  });

  it("marks heredoc bodies, literal or expanding, and resumes after the delimiter", () => {
    const text = "cat <<'X' && cat <<Y\nit's\nX\n$v\nY\nls 'q'";
    const contexts = scanQuoteContexts(text);
    expect(contexts[text.indexOf("it's")]).toBe(QuoteContext.HeredocLiteral);
    expect(contexts[text.indexOf("$v")]).toBe(QuoteContext.HeredocExpanding);
    expect(contexts[text.indexOf("ls")]).toBe(QuoteContext.Unquoted);
    expect(contexts[text.indexOf("q")]).toBe(QuoteContext.Single);
  });

  it("keeps double quotes nested inside $( ) apart from the outer string", () => {
    const text = `echo "$(echo ")")" x`;
    expect(scanQuoteContexts(text)[text.length - 1]).toBe(QuoteContext.Unquoted);
  });
});

describe("line continuations", () => {
  it("joins backslash-newline outside single quotes and comments only", () => {
    expect(joinLineContinuations("r\\\nm x")).toBe("rm x");
    expect(joinLineContinuations('echo "a\\\nb"')).toBe('echo "ab"');
    expect(joinLineContinuations("echo 'a\\\nb'")).toBe("echo 'a\\\nb'");
    expect(joinLineContinuations("ls # c \\\nrm x")).toBe("ls # c \\\nrm x");
    expect(joinLineContinuations("echo a\\\\\nls")).toBe("echo a\\\\\nls");
  });
});

describe("ANSI-C decoding", () => {
  it("decodes the escapes bash knows", () => {
    expect(decodeAnsiC("\\x72\\x6d")).toBe("rm");
    expect(decodeAnsiC("\\162\\155")).toBe("rm");
    expect(decodeAnsiC("\\u0063url")).toBe("curl");
    expect(decodeAnsiC("\\U0001F600")).toBe("\u{1F600}");
    expect(decodeAnsiC("a\\tb\\n\\'")).toBe("a\tb\n'");
    expect(decodeAnsiC("\\cA")).toBe("\u0001");
    expect(decodeAnsiC("\\q")).toBe("\\q");
  });
});

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

describe("fallback splitter", () => {
  it("recovers commands from text the grammar rejects, expansions included", () => {
    const commands = fallbackSimpleCommands("ls ) ; {rm,-rf,x} && $'\\x63url' evil | r''m y > out");
    expect(commands.map((c) => c.map((w) => w.value))).toEqual([
      ["ls"],
      ["rm", "-rf", "x"],
      ["curl", "evil"],
      ["rm", "y"],
    ]);
  });
});
