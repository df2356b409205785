// A skill written while an interactive session runs is found at its next use, without a restart:
// here a `context: fork` skill in the project's .claude/skills, in a session that started with no
// skills at all (so no Skill tool). The built binary in tmux, against the replay provider.
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptWhen, tuiProject, writeIn } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

describe("a skill added mid-session (tmux, replay provider)", () => {
  it("runs a forked skill written after the start: the Skill tool joins the pool and finds it", async () => {
    const p = tuiProject([
      { content: [text("Nothing to dig into yet.")] },
      // Asked by `/digest the logs`: the main loop calls the Skill tool...
      { content: [toolUse("s1", "Skill", { skill: "digest", args: "the logs" })] },
      // ...the skill's subagent answers...
      { agent: "skill digest", content: [text("Digest: three warnings, no errors.")] },
      // ...and the main loop reads its report.
      { content: [text("The digest found three warnings.")] },
    ]);
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "anything to digest?");
    await t.waitFor("Nothing to dig into yet.");

    writeIn(
      p.cwd,
      ".claude/skills/digest/SKILL.md",
      "---\ndescription: Digest a log\ncontext: fork\n---\nRead $ARGUMENTS and list the warnings and errors.\n",
    );
    await submit(t, "/digest the logs");
    await t.waitFor("The digest found three warnings.");

    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("The digest found three warnings."));
    const all = JSON.stringify(lines);
    // The Skill tool ran the skill as a subagent, and the subagent's report came back as its result.
    expect(all).toContain("ran as a subagent");
    expect(all).toContain("Digest: three warnings, no errors.");
    expect(all).not.toContain("There is no skill named");
  });
});
