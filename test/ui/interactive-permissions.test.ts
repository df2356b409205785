// /permissions remove in the interactive UI: a rule taken out of the session and out of the
// settings file it came from (a pick list when no rule is named); a rule from the command line
// goes for the session only. The built binary in tmux, against the replay provider.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject, writeIn } from "../helpers/tui-project.js";

afterEach(killTerminals);

describe("/permissions remove (tmux, replay provider)", () => {
  it("removes a rule from its settings file, picks among the rules when none is named, and lists what is left", async () => {
    const p = tuiProject([]);
    // Deny rules only restrict: the folder's settings need no trust question.
    writeIn(
      p.cwd,
      ".warden/settings.local.json",
      JSON.stringify({ permissions: { deny: ["Bash(rm:*)", "Bash(curl:*)"] } }),
    );
    writeIn(p.home, "settings.json", JSON.stringify({ permissions: { allow: ["WebFetch(domain:example.com)"] } }));
    const t = p.start(["--allowedTools", "Grep"]);
    await t.waitFor(READY);

    await submit(t, "/permissions remove Bash(rm:*)");
    await t.waitFor("Removed deny rule Bash(rm:*) from .warden/settings.local.json.");
    const local = JSON.parse(readFileSync(join(p.cwd, ".warden/settings.local.json"), "utf8"));
    expect(local.permissions.deny).toEqual(["Bash(curl:*)"]);

    await submit(t, "/permissions remove");
    const list = await t.waitFor("Remove which rule?");
    const line = list.split("\n").find((l) => l.includes("WebFetch(domain:example.com)")) ?? "";
    const number = /(\d)\. allow WebFetch/.exec(line)?.[1];
    expect(number).toBeDefined();
    expect(list).toMatch(/\d\. allow Grep +· cliArg/);
    t.type(number as string);
    await t.waitFor("Removed allow rule WebFetch(domain:example.com) from ");
    const user = JSON.parse(readFileSync(join(p.home, "settings.json"), "utf8"));
    expect(user.permissions.allow).toEqual([]);

    await submit(t, "/permissions remove allow Grep");
    await t.waitFor("Removed allow rule Grep (cliArg: for the rest of this session).");

    await submit(t, "/permissions remove Bash(rm:*)");
    await t.waitFor("No rule Bash(rm:*) is in force (see /permissions).");

    await submit(t, "/permissions");
    const listing = await t.waitFor("Add with /permissions allow|deny|ask RULE");
    expect(listing).toMatch(/allow \(0\):/);
    expect(listing).toMatch(/deny \(1\):\n +Bash\(curl:\*\) +· localSettings/);
  });
});
