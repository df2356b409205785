// /add-dir in the built binary, in tmux, against the replay provider: a folder outside the project
// becomes a working folder, so the model's Read there is no longer asked about; saved, it is in
// .warden/settings.local.json for the sessions after.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { tempDir, text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

describe("/add-dir (tmux, replay provider)", () => {
  it("lets the model read in the added folder without asking, and saves it when asked to", async () => {
    const other = tempDir("warden-add-dir-other-");
    writeFileSync(join(other, "plan.md"), "step one: measure\n");
    const saved = tempDir("warden-add-dir-saved-");
    const p = tuiProject([
      { content: [toolUse("r1", "Read", { file_path: join(other, "plan.md") })] },
      { content: [text("The plan starts with measuring.")] },
    ]);
    const t = p.start();
    await t.waitFor(READY);

    await submit(t, "/add-dir ../nowhere-at-all");
    await t.waitFor("does not exist");

    await submit(t, `/add-dir ${other}`);
    await t.waitFor("For this session and later ones here");
    t.press("Enter");
    await t.waitFor(`Added ${other} as a working folder for this session.`);

    // Outside the project, yet not asked about: the Read runs and the model answers.
    await submit(t, "what is the plan?");
    const screen = await t.waitFor("The plan starts with measuring.");
    expect(screen).not.toContain("Do you want to proceed?");

    await submit(t, `/add-dir ${saved}`);
    await t.waitFor("For this session and later ones here");
    t.press("Down", "Enter");
    await t.waitFor(/Added .* as a working folder \(saved in \.warden\/settings\.local\.json\)/);
    const local = JSON.parse(readFileSync(join(p.cwd, ".warden", "settings.local.json"), "utf8"));
    expect(local.permissions.additionalDirectories).toEqual([saved]);

    await submit(t, "/add-dir");
    const list = await t.waitFor("Working folders:");
    expect(list).toContain(other);
    expect(list).toContain(saved);
  });
});
