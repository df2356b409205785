// `/clear` in the interactive UI, as a person sees it: the screen is wiped and the prompt drawn
// again at once (not only after the next key), and what the person allowed "always" in the
// cleared conversation still holds in the new one (it was saved to .warden/settings.local.json).
// The built binary in tmux.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { TmuxTerminal, terminalsKilledAfterEach } from "../helpers/tmux.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";

const terminals = terminalsKilledAfterEach();

const READY = /default mode \(shift\+tab to cycle\)/;

it("/clear redraws the prompt at once and keeps the rules allowed always", async () => {
  const home = tempDir("warden-clear-home-");
  const cwd = tempDir("warden-clear-project-");
  const scripts = tempDir("warden-clear-scripts-");
  // A project skill: with one, the screen stayed blank after /clear until a key was pressed.
  mkdirSync(join(cwd, ".claude/skills/release"), { recursive: true });
  writeFileSync(
    join(cwd, ".claude/skills/release/SKILL.md"),
    "---\nname: release\ndescription: Prepare a release\n---\nBump the version.\n",
  );
  // Each session plays the script from its start: the new conversation makes the same call.
  const script = writeScript(
    scripts,
    [{ content: [toolUse("t1", "Bash", { command: "touch marker.txt" })] }, { content: [text("marker touched")] }],
    "touch.jsonl",
  );
  const terminal = TmuxTerminal.start({
    cwd,
    args: ["--model", `replay:${script}`],
    env: { WARDEN_HOME: join(home, ".warden"), HOME: home },
    width: 120,
    height: 40,
  });
  terminals.push(terminal);
  await terminal.waitFor(READY);

  terminal.type("touch the marker");
  await terminal.waitFor("> touch the marker");
  terminal.press("Enter");
  await terminal.waitFor("Do you want to proceed?");
  await terminal.pressInNewDialog("2", /marker touched/);
  const saved = JSON.parse(readFileSync(join(cwd, ".warden/settings.local.json"), "utf8"));
  expect(saved.permissions.allow).toEqual(["Bash(touch:*)"]);
  rmSync(join(cwd, "marker.txt"));

  terminal.type("/clear");
  await terminal.waitFor("> /clear");
  terminal.press("Enter");
  // The old conversation is gone and the prompt is back, with no key pressed since.
  await terminal.waitFor((screen) => !screen.includes("marker touched") && READY.test(screen));

  terminal.type("touch it again");
  await terminal.waitFor("> touch it again");
  terminal.press("Enter");
  const screen = await terminal.waitFor("marker touched");
  expect(screen).not.toContain("Do you want to proceed?");
  expect(existsSync(join(cwd, "marker.txt"))).toBe(true);
});

it("says a settings warning among the UI's notices, at the start and after /clear, not on stderr over the screen", async () => {
  const home = tempDir("warden-clear-warn-home-");
  const cwd = tempDir("warden-clear-warn-project-");
  mkdirSync(join(home, ".warden"), { recursive: true });
  writeFileSync(join(home, ".warden/settings.json"), JSON.stringify({ permissions: { allow: ["Bash(unclosed"] } }));
  const terminal = TmuxTerminal.start({
    cwd,
    args: ["--model", "replay:/dev/null"],
    env: { WARDEN_HOME: join(home, ".warden"), HOME: home },
    width: 160,
    height: 40,
  });
  terminals.push(terminal);
  const warning = 'malformed allow rule skipped: "Bash(unclosed" must end with ")"';
  const first = await terminal.waitFor((screen) => READY.test(screen) && screen.includes(warning));
  // The notice's own form ("warning: ..."), not the stderr line ("warden: warning: ...").
  expect(first).not.toContain("warden: warning:");

  terminal.type("/clear");
  await terminal.waitFor("> /clear");
  terminal.press("Enter");
  const after = await terminal.waitFor(
    (screen) => READY.test(screen) && !screen.includes("> /clear") && screen.includes(warning),
  );
  expect(after).not.toContain("warden: warning:");
});
