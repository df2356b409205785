// A Write's permission dialog shows what it writes (as an Edit's shows its diff): all lines added
// for a new file. The built binary in tmux.
import { join } from "node:path";
import { expect, it } from "vitest";
import { TmuxTerminal, terminalsKilledAfterEach } from "../helpers/tmux.js";
import { tempDir, text, toolUse, writeScript } from "../loop/helpers.js";

const terminals = terminalsKilledAfterEach();

it("the Write dialog shows the content to be written", async () => {
  const home = tempDir("warden-write-home-");
  const cwd = tempDir("warden-write-project-");
  const scripts = tempDir("warden-write-scripts-");
  const script = writeScript(
    scripts,
    [
      { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/NOTES.md", content: "first note\nsecond note\n" })] },
      { content: [text("written")] },
    ],
    "write.jsonl",
  );
  const terminal = TmuxTerminal.start({
    cwd,
    args: ["--model", `replay:${script}`],
    env: { WARDEN_HOME: join(home, ".warden"), HOME: home },
  });
  terminals.push(terminal);
  await terminal.waitFor(/default mode/);
  terminal.type("write the notes");
  await terminal.waitFor("> write the notes");
  terminal.press("Enter");
  const dialog = await terminal.waitFor("Do you want to proceed?");
  expect(dialog).toMatch(/1 \+ first note/);
  expect(dialog).toMatch(/2 \+ second note/);
  expect(dialog).not.toMatch(/\d+ - /);
});
