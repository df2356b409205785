// ink measures text with string-width, whose module built `/^\p{RGI_Emoji}$/v` as it loaded (~16 ms
// of the interactive UI's start, ~5 ms more at its first test). The build edits it
// (scripts/dependency-edits.mjs) to build that set only for a cluster that could be an emoji. This
// loads string-width as the build edits it and checks that it measures exactly as the original,
// and that loading it and measuring plain text builds no emoji set.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a build script in plain JavaScript, without types.
import { editedDependency } from "../../scripts/dependency-edits.mjs";

type StringWidth = (text: string) => number;
const require = createRequire(import.meta.url);
const original = require.resolve("string-width");
const dir = join(original, "..", "..", ".cache", `warden-string-width-edited-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The edited copy, written beside node_modules' packages so that its own imports resolve. */
async function editedStringWidth(): Promise<StringWidth> {
  const edited = (editedDependency as (path: string, code: string) => string | undefined)(
    original,
    readFileSync(original, "utf8"),
  );
  if (edited === undefined) throw new Error("the build no longer edits string-width");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{"type":"module"}');
  const file = join(dir, `index-${Date.now()}.js`);
  writeFileSync(file, edited);
  return ((await import(pathToFileURL(file).href)) as { default: StringWidth }).default;
}

const realRegExp = globalThis.RegExp;
afterEach(() => {
  globalThis.RegExp = realRegExp;
});

/** Counts the RegExps made with an RGI_Emoji pattern while `run` runs. */
async function emojiSetsBuiltDuring(run: () => Promise<void> | void): Promise<number> {
  let built = 0;
  globalThis.RegExp = new Proxy(realRegExp, {
    construct(target, args: [string | RegExp, string?]) {
      if (String(args[0]).includes("RGI_Emoji")) built += 1;
      return new target(...args);
    },
  });
  try {
    await run();
  } finally {
    globalThis.RegExp = realRegExp;
  }
  return built;
}

describe("string-width as the build edits it", () => {
  it("measures every single code point and the emoji sequences exactly as the original", async () => {
    const edited = await editedStringWidth();
    const stringWidth = ((await import("string-width")) as { default: StringWidth }).default;
    const samples: string[] = [];
    for (let cp = 0x20; cp <= 0x10ffff; cp += cp < 0x3000 || (cp >= 0x1f000 && cp < 0x1fb00) ? 1 : 97) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      samples.push(String.fromCodePoint(cp));
    }
    samples.push(
      "plain ascii",
      "─── rule ───",
      "❯ › ● ⏺ ✻ ⎿",
      "中文字符",
      "é café e\u0301",
      "❤️ ❤ ☺️ ☺ © ©️ ™️",
      "1️⃣ #️⃣ *️⃣ 1⃣",
      "🇫🇷🇯🇵 🇺",
      "👍🏽 👋🏿 🏻",
      "👨‍👩‍👧‍👦 🏳️‍🌈 👁️‍🗨️ 🧑🏽‍💻",
      "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
      "\x1b[31mred 😀\x1b[0m",
    );
    const differing = samples.filter((text) => edited(text) !== stringWidth(text));
    expect(differing).toEqual([]);
    // The samples do reach the emoji rule: some measure 2 only as emoji.
    expect(edited("👨‍👩‍👧‍👦")).toBe(2);
    expect(edited("1️⃣")).toBe(2);
  });

  it("builds no emoji set to load and to measure text without emoji, and one for the first emoji", async () => {
    let measure: StringWidth | undefined;
    expect(
      await emojiSetsBuiltDuring(async () => {
        measure = await editedStringWidth();
      }),
    ).toBe(0);
    const stringWidth = measure as StringWidth;
    expect(await emojiSetsBuiltDuring(() => void stringWidth("─── > default mode (shift+tab to cycle) 中文 é"))).toBe(
      0,
    );
    expect(await emojiSetsBuiltDuring(() => void stringWidth("done 👍"))).toBe(1);
    expect(await emojiSetsBuiltDuring(() => void stringWidth("again 👍"))).toBe(0);
  });
});
