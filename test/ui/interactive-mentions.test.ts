// `@path` in a prompt typed in the UI attaches the file: a Read call made through the permission
// engine, shown on screen and recorded in the transcript ahead of the prompt, so the model has the
// contents (and may edit the file without reading it again). What cannot be attached is said. The
// built binary in tmux, against the replay provider.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, submit, transcriptWhen, tuiProject, writeIn } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

type Line = { message?: { role?: string; content?: Array<{ type: string; text?: string }> } };

describe("@file mentions (tmux, replay provider)", () => {
  it("attaches a mentioned file with a Read the model receives, and says why others were not attached", async () => {
    const p = tuiProject([
      {
        content: [
          toolUse("e1", "Edit", { file_path: "{{cwd}}/src/greet.ts", old_string: '"Hello "', new_string: '"Hi "' }),
        ],
      },
      { content: [text("Edited the greeting.")] },
    ]);
    writeIn(p.cwd, "src/greet.ts", 'export const greet = (name: string) => "Hello " + name;\n');
    writeIn(p.cwd, "blob.bin", Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]));
    writeIn(p.cwd, "big.log", "x".repeat(300 * 1024));
    writeIn(p.cwd, "secret.txt", "the-secret-value\n");
    // Edits go through unasked, so the only questions would be about the Reads.
    const t = p.start(["--permission-mode", "acceptEdits", "--disallowedTools", "Read(./secret.txt)"]);
    await t.waitFor(/accept edits on/);
    await submit(t, "fix @src/greet.ts, see @big.log @blob.bin @secret.txt @missing/x.ts and ping @alice");
    const screen = await t.waitFor("Edited the greeting.");
    expect(screen).toContain("Read(src/greet.ts)");
    expect(screen).toMatch(/@big\.log was not attached: \S+big\.log is 300 KB, over the 256 KB\s+limit/);
    expect(screen).toMatch(/@blob\.bin was not attached: \S+blob\.bin is a binary \.bin file/);
    expect(screen).toMatch(/@secret\.txt was not attached: Permission to read \S+secret\.txt has been\s+denied/);
    expect(screen).toContain("@missing/x.ts was not attached: no such file");
    expect(screen).not.toContain("@alice was not attached");
    expect(screen).not.toContain("Do you want to proceed?");
    // The model edited the file it had only through the attachment: the Read counted as its own.
    expect(readFileSync(join(p.cwd, "src/greet.ts"), "utf8")).toContain('"Hi "');

    const lines = (await transcriptWhen(p, (l) => JSON.stringify(l).includes("Edited the greeting."))) as Line[];
    const users = lines.filter((l) => l.message?.role === "user").map((l) => JSON.stringify(l.message?.content));
    const attachedAt = users.findIndex((u) => u.includes("The user attached @src/greet.ts"));
    const promptAt = users.findIndex((u) => u.includes("fix @src/greet.ts"));
    expect(attachedAt).toBeGreaterThanOrEqual(0);
    expect(attachedAt).toBeLessThan(promptAt);
    const attached = users[attachedAt] as string;
    expect(attached).toContain('\\"Hello \\" + name');
    expect(attached).toContain("The user mentioned @blob.bin, which was not attached");
    expect(attached).not.toContain("the-secret-value");
    expect(JSON.stringify(lines)).not.toContain("the-secret-value");
  });
});
