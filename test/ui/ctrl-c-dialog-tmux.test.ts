// Ctrl+C while a permission dialog holds the keys: it interrupts the prompt (the dialog goes, the
// call is not run) and, pressed again, exits, as it does at the prompt. The built binary in tmux.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { TmuxTerminal, terminalsKilledAfterEach } from "../helpers/tmux.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";

const terminals = terminalsKilledAfterEach();

const READY = /default mode \(shift\+tab to cycle\)/;

it("Ctrl+C in a permission dialog interrupts, and twice exits", async () => {
  const home = tempDir("warden-ctrlc-home-");
  const cwd = tempDir("warden-ctrlc-project-");
  const scripts = tempDir("warden-ctrlc-scripts-");
  const script = writeScript(
    scripts,
    [{ content: [toolUse("t1", "Bash", { command: "touch marker.txt" })] }, { content: [text("never said")] }],
    "touch.jsonl",
  );
  const terminal = TmuxTerminal.start({
    cwd,
    args: ["--model", `replay:${script}`],
    env: { WARDEN_HOME: join(home, ".warden"), HOME: home },
  });
  terminals.push(terminal);
  await terminal.waitFor(READY);

  terminal.type("touch the marker");
  await terminal.waitFor("> touch the marker");
  terminal.press("Enter");
  await terminal.waitFor("Do you want to proceed?");
  await terminal.pressInNewDialog("C-c", /Press Ctrl\+C again to exit/);
  const screen = await terminal.waitFor("Interrupted by the user");
  expect(screen).not.toContain("Do you want to proceed?");

  terminal.press("C-c");
  expect(await terminal.exitCode()).toBe(0);
  expect(existsSync(join(cwd, "marker.txt"))).toBe(false);
});
