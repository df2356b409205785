// `/clear` in the interactive UI, as a person sees it: the screen is wiped and the prompt drawn
// again at once (not only after the next key), and what the person allowed "always" in the
// cleared conversation still holds in the new one (it was saved to .warden/settings.local.json), as
// do the model and the mode chosen during the session.
// The built binary in tmux.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject, writeIn } from "../helpers/tui-project.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";

afterEach(killTerminals);

it("/clear redraws the prompt at once and keeps the rules allowed always", async () => {
  // Each session plays the script from its start: the new conversation makes the same call.
  const p = tuiProject(
    [{ content: [toolUse("t1", "Bash", { command: "touch marker.txt" })] }, { content: [text("marker touched")] }],
    // A project skill: with one, the screen stayed blank after /clear until a key was pressed.
    {
      ".claude/skills/release/SKILL.md": "---\nname: release\ndescription: Prepare a release\n---\nBump the version.\n",
    },
  );
  const terminal = p.start([], {}, { width: 120, height: 40 });
  await terminal.waitFor(READY);

  await submit(terminal, "touch the marker");
  await terminal.waitFor("Do you want to proceed?");
  await terminal.pressInNewDialog("2", /marker touched/);
  const saved = JSON.parse(readFileSync(join(p.cwd, ".warden/settings.local.json"), "utf8"));
  expect(saved.permissions.allow).toEqual(["Bash(touch:*)"]);
  rmSync(join(p.cwd, "marker.txt"));

  await submit(terminal, "/clear");
  // The old conversation is gone and the prompt is back, with no key pressed since.
  await terminal.waitFor((screen) => !screen.includes("marker touched") && READY.test(screen));

  await submit(terminal, "touch it again");
  const screen = await terminal.waitFor("marker touched");
  expect(screen).not.toContain("Do you want to proceed?");
  expect(existsSync(join(p.cwd, "marker.txt"))).toBe(true);
});

it("says a settings warning among the UI's notices, at the start and after /clear, not on stderr over the screen", async () => {
  const p = tuiProject([]);
  writeIn(p.home, "settings.json", JSON.stringify({ permissions: { allow: ["Bash(unclosed"] } }));
  const terminal = p.start([], {}, { width: 160, height: 40 });
  const warning = 'malformed allow rule skipped: "Bash(unclosed" must end with ")"';
  const first = await terminal.waitFor((screen) => READY.test(screen) && screen.includes(warning));
  // The notice's own form ("warning: ..."), not the stderr line ("warden: warning: ...").
  expect(first).not.toContain("warden: warning:");

  await submit(terminal, "/clear");
  const after = await terminal.waitFor(
    (screen) => READY.test(screen) && !screen.includes("> /clear") && screen.includes(warning),
  );
  expect(after).not.toContain("warden: warning:");
});

it("/clear and /resume keep the model chosen with /model and the mode chosen with Shift+Tab", async () => {
  const p = tuiProject([{ content: [text("answer from the first model")] }]);
  const second = writeScript(tempDir("warden-clear-second-"), [{ content: [text("answer from the second model")] }]);
  const terminal = p.start([], {}, { width: 120, height: 40 });
  await terminal.waitFor(READY);
  // A first conversation, for /resume to come back to.
  await submit(terminal, "first");
  await terminal.waitFor("answer from the first model");
  await submit(terminal, `/model replay:${second}`);
  await terminal.waitFor(`Now using replay:${second}`);
  terminal.press("BTab");
  await terminal.waitFor("accept edits on");

  await submit(terminal, "/clear");
  await terminal.waitFor(
    (screen) => !screen.includes("Now using") && !screen.includes("> first") && screen.includes("accept edits on"),
  );
  await submit(terminal, "hello");
  const screen = await terminal.waitFor(/answer from the (first|second) model/);
  expect(screen).toContain("answer from the second model");
  expect(screen).toContain("accept edits on");

  // /resume too: the conversation is the first one, the model and the mode still the chosen ones.
  await submit(terminal, "/resume");
  await terminal.waitFor("Resume which session?");
  terminal.press("Enter");
  await terminal.waitFor((screen) => screen.includes("Resumed session") && screen.includes("> first"));
  await submit(terminal, "again");
  const resumed = await terminal.waitFor(/> again[\s\S]*answer from the (first|second) model/);
  expect(resumed.slice(resumed.indexOf("> again"))).toContain("answer from the second model");
  expect(resumed).toContain("accept edits on");
});
