// The prompt's direct echo in a real terminal (the built binary in tmux, replay provider): a typed
// character reaches the terminal as a short write into the prompt's line before the frame that
// redraws the UI, and what the frames then draw leaves nothing out of place.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { tempDir, text } from "../loop/helpers.js";

afterEach(killTerminals);

const promptLines = (screen: string) => screen.split("\n").filter((l) => l.startsWith("> "));

describe("the prompt's direct echo (tmux)", () => {
  it("echoes a key into the prompt's line first; edits the echo does not cover still come out right", async () => {
    const p = tuiProject([{ content: [text("Heard you.")] }]);
    const t = p.start();
    await t.waitFor(READY);
    const log = join(tempDir("warden-echo-log-"), "output.bin");
    t.recordOutput(log);

    t.type("h");
    await t.waitFor((s) => promptLines(s).some((l) => l.trimEnd() === "> h"));
    // The first bytes after the key: up to the prompt's line, its third column (after "> "), the
    // key, the rest of the line cleared, back to where the frame left the cursor.
    const first = readFileSync(log, "latin1");
    expect(first).toMatch(/^\x1b\[(\d+)A\x1b\[3Gh\x1b\[7m \x1b\[27m\x1b\[K\r\x1b\[\1B/);

    let typed = "h";
    for (const key of "ello") {
      typed += key;
      t.type(key);
      await t.waitFor((s) => promptLines(s).some((l) => l.trimEnd() === `> ${typed}`));
    }
    // A key in the middle of the text is left to the frame.
    t.press("Left");
    t.type("X");
    const screen = await t.waitFor("> hellXo");
    expect(promptLines(screen).map((l) => l.trimEnd())).toEqual(["> hellXo"]);
    // Nothing typed landed anywhere else, and the status line is whole.
    expect(screen.split("\n").filter((l) => l.includes("hell"))).toHaveLength(1);
    expect(screen).toMatch(READY);

    t.press("End");
    await submit(t, "!");
    const answered = await t.waitFor("Heard you.");
    expect(answered).toContain("> hellXo!");
  });
});
