// A Write's permission dialog shows what it writes (as an Edit's shows its diff): all lines added
// for a new file. The built binary in tmux.
import { afterEach, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

it("the Write dialog shows the content to be written", async () => {
  const p = tuiProject([
    { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/NOTES.md", content: "first note\nsecond note\n" })] },
    { content: [text("written")] },
  ]);
  const terminal = p.start();
  await terminal.waitFor(READY);
  await submit(terminal, "write the notes");
  const dialog = await terminal.waitFor("Do you want to proceed?");
  expect(dialog).toMatch(/1 \+ first note/);
  expect(dialog).toMatch(/2 \+ second note/);
  expect(dialog).not.toMatch(/\d+ - /);
});
