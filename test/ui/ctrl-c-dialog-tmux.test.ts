// Ctrl+C while a permission dialog holds the keys: it interrupts the prompt (the dialog goes, the
// call is not run) and, pressed again, exits, as it does at the prompt. The built binary in tmux.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

it("Ctrl+C in a permission dialog interrupts, and twice exits", async () => {
  const p = tuiProject([
    { content: [toolUse("t1", "Bash", { command: "touch marker.txt" })] },
    { content: [text("never said")] },
  ]);
  const terminal = p.start();
  await terminal.waitFor(READY);

  await submit(terminal, "touch the marker");
  await terminal.waitFor("Do you want to proceed?");
  await terminal.pressInNewDialog("C-c", /Press Ctrl\+C again to exit/);
  const screen = await terminal.waitFor("Interrupted by the user");
  expect(screen).not.toContain("Do you want to proceed?");

  terminal.press("C-c");
  expect(await terminal.exitCode()).toBe(0);
  expect(existsSync(join(p.cwd, "marker.txt"))).toBe(false);
});
