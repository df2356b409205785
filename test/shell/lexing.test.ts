// The small lexing pieces under the analysis: quote contexts, line continuations, ANSI-C
// decoding, brace expansion limits and the fallback splitter.
import { describe, expect, it } from "vitest";
import {
  fallbackSimpleCommands,
  joinLineContinuations,
  QuoteContext,
  scanQuoteContexts,
} from "../../src/shell/parse/index.js";
import { decodeAnsiC } from "../../src/shell/words/index.js";

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
