// What the interactive UI loads on its way to the first frame, and how (issue 39). ink's layout
// engine (yoga) ships its wasm as a base64 data: URL and reads it through the global fetch wherever
// one exists, which in Node loads undici (~65 ms of CPU and ~8 MB on the path to the first frame);
// the build makes yoga decode it itself and start at once (scripts/dependency-edits.mjs), and
// the UI's chunk, with no top-level await left, is compiled through V8's code cache like the
// headless one (scripts/cached-chunks.mjs). The built binary in tmux, replay provider; a preloaded
// probe reports what Node loaded.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { tempDir, text } from "../loop/helpers.js";

afterEach(killTerminals);

const probe = fileURLToPath(new URL("./fixtures/report-undici.cjs", import.meta.url));

describe("the interactive UI's modules (tmux)", () => {
  it("lays out and draws the UI, answers a prompt and exits without ever loading undici", async () => {
    const report = join(tempDir("warden-ui-modules-"), "report.txt");
    const p = tuiProject([{ content: [text("Laid out.")] }]);
    const t = p.start([], { NODE_OPTIONS: `--require ${probe}`, WARDEN_TEST_MODULES_REPORT: report });
    // The status line and the prompt are yoga's layout: its wasm loaded and ran.
    await t.waitFor(READY);
    await submit(t, "lay it out");
    await t.waitFor("Laid out.");
    t.press("C-d");
    expect(await t.exitCode()).toBe(0);
    expect(readFileSync(report, "utf8")).toBe("undici-loaded=false\n");
  });

  it("compiles the UI's code on the first start, takes it from V8's code cache on the next, and works the same", async () => {
    const cacheHome = tempDir("warden-ui-code-cache-");
    const cacheDir = join(cacheHome, "warden", "code-cache");
    const env = { XDG_CACHE_HOME: cacheHome, WARDEN_TRACE_CODE_CACHE: "1" };
    const uiCacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.startsWith("ui-")) : []);
    for (const [round, state] of [
      [1, "miss"],
      [2, "hit"],
    ] as const) {
      const p = tuiProject([{ content: [text(`Answer ${round}.`)] }]);
      const t = p.start([], env);
      // The loader's trace (on the terminal, before the UI draws) names the UI's chunk.
      const screen = await t.waitFor(READY);
      expect(screen).toMatch(new RegExp(`warden: code cache ${state} \\S*/ui-[\\w-]+\\.cjs-`));
      await submit(t, "answer me");
      await t.waitFor(`Answer ${round}.`);
      t.press("C-d");
      expect(await t.exitCode()).toBe(0);
      // The first session wrote the cache as it exited; the second took it.
      expect(uiCacheFiles()).toHaveLength(1);
    }
  });
});
