// What the interactive UI loads on its way to the first frame (issue 39): ink's layout engine
// (yoga) ships its wasm as a base64 data: URL and reads it through the global fetch wherever one
// exists, which in Node loads undici (~65 ms of CPU and ~8 MB on the path to the first frame). The
// build makes yoga decode the string itself (scripts/build.mjs, yogaWithoutFetch). The built
// binary in tmux, replay provider; a preloaded probe reports what Node loaded.
import { readFileSync } from "node:fs";
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
});
