// A session that cannot start, as a person sees it in the interactive UI: the error is the last
// thing on the screen and warden exits non-zero. The UI's frame (the prompt and the "starting…"
// status line, drawn at once so keys typed early are echoed) used to stay drawn under the error.
// The built binary in tmux.
import { afterEach, expect, it } from "vitest";
import { killTerminals, tuiProject } from "../helpers/tui-project.js";

afterEach(killTerminals);

it("refuses a malformed deny rule with the error alone on the screen, the frame taken off", async () => {
  const p = tuiProject([], { ".claude/settings.json": JSON.stringify({ permissions: { deny: ["Bash(("] } }) });
  const terminal = p.start([], {}, { width: 160, height: 30 });
  expect(await terminal.exitCode()).toBe(1);
  const screen = terminal.screen();
  expect(screen).toContain("warden: refusing to start: settings cannot be read safely:");
  expect(screen).toContain('malformed deny rule: "Bash((" must end with ")"');
  expect(screen).not.toContain("starting…");
  expect(screen).not.toMatch(/^>/m);
});
