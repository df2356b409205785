// "Yes, and don't ask again" for a command held back twice: by a command that needs a rule and by a
// file outside the working directories. The dialog names both, and the answer grants both, so the
// same command does not ask again (it granted only the rule before, and the question came back).
// The built binary in tmux.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

it("grants the rule and the folder with one answer, and the same command then runs without asking", async () => {
  const elsewhere = mkdtempSync(join(tmpdir(), "warden-elsewhere-"));
  writeFileSync(join(elsewhere, "log.txt"), "from elsewhere\n");
  const command = `git init -q made && cat ${elsewhere}/log.txt`;
  const p = tuiProject([
    { content: [toolUse("b1", "Bash", { command })] },
    { content: [text("First done.")] },
    { content: [toolUse("b2", "Bash", { command: `git init -q again && cat ${elsewhere}/log.txt` })] },
    { content: [text("Second done.")] },
  ]);
  const t = p.start([], {}, { width: 160, height: 40 });
  await t.waitFor(READY);
  await submit(t, "init and read the log");
  const dialog = await t.waitFor("Do you want to proceed?");
  expect(dialog).toMatch(/2\. Yes, and don't ask again for Bash\(git init:\*\)[^\n]* and files in /);
  expect(dialog).toContain(elsewhere);
  t.type("2");
  await t.waitFor("First done.");
  await submit(t, "again");
  const after = await t.waitFor("Second done.");
  expect(after).not.toContain("Do you want to proceed?");
  expect(after.match(/from elsewhere/g)).toHaveLength(2);
});
