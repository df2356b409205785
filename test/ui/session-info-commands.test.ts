// /context, /status and /export in the built binary, in tmux, against the replay provider: what
// fills the window by kind, where the session stands, and the conversation written to a file.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

describe("/context, /status and /export (tmux, replay provider)", () => {
  it("show the window by kind and the session's state, and write the conversation out", async () => {
    const p = tuiProject(
      [
        { content: [toolUse("r1", "Bash", { command: "cat notes.txt" })] },
        { content: [text("The notes say: ship on Friday.")] },
      ],
      { "notes.txt": "ship on Friday\n" },
    );
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "what do the notes say?");
    await t.waitFor("The notes say: ship on Friday.");

    await submit(t, "/context");
    const context = await t.waitFor(/Context: [\d.]+k? of [\d.]+k tokens/);
    for (const kind of ["System prompt", "System tools", "Messages", "Free space"]) expect(context).toContain(kind);

    await submit(t, "/status");
    const status = await t.waitFor(/Mode: default/);
    expect(status).toMatch(/Session: [0-9a-f-]{36}/);
    expect(status).toContain("MCP servers: none");

    await submit(t, "/export talk.txt");
    await t.waitFor("Conversation written to talk.txt");
    const written = readFileSync(join(p.cwd, "talk.txt"), "utf8");
    expect(written).toContain("> what do the notes say?");
    expect(written).toContain("● Bash(cat notes.txt)");
    expect(written).toContain("ship on Friday");
    expect(written).toContain("The notes say: ship on Friday.");
    expect(written).not.toContain("<system-reminder>");

    // Without a name: the date and the first prompt's words, in the project folder.
    await submit(t, "/export");
    await t.waitFor(/Conversation written to \d{4}-\d\d-\d\d-what-do-the-notes-say\.txt/);
    // Again: a second file beside it, the first one kept.
    await submit(t, "/export");
    await t.waitFor(/Conversation written to \d{4}-\d\d-\d\d-what-do-the-notes-say-2\.txt/);
    expect(readdirSync(p.cwd).filter((f) => /^\d{4}-\d\d-\d\d-what-do-the-notes-say(-2)?\.txt$/.test(f))).toHaveLength(
      2,
    );
  });
});
