// The user's and the project's own commands and skills in the interactive UI: listed under a `/`
// as it is typed and by /help, read again from disk each time (a file written while the session
// runs is there without a restart), completed with Tab, and expanded when sent. The built binary
// in tmux, against the replay provider.
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptWhen, tuiProject, writeIn } from "../helpers/tui-project.js";
import { text } from "../loop/helpers.js";

afterEach(killTerminals);

describe("custom commands and skills in the prompt (tmux, replay provider)", () => {
  it("lists a command written after the start under `/` and in /help, completes it with Tab and expands it", async () => {
    const p = tuiProject([{ content: [text("Scaffolded.")] }]);
    writeIn(p.home, "commands/review.md", "---\ndescription: Review the diff\n---\nReview the current diff.\n");
    const t = p.start();
    await t.waitFor(READY);
    t.type("/");
    const first = await t.waitFor("/review");
    expect(first).toMatch(/\/review +Review the diff \(user command\)/);
    expect(first).toMatch(/\/help +Show the commands and keys/);
    expect(first).not.toContain("/scaffold");
    t.press("BSpace");

    // Written while the session runs: the next `/` reads the folders again.
    writeIn(
      p.home,
      "commands/scaffold.md",
      "---\ndescription: Make a file with a greeting\nargument-hint: <file>\n---\nCreate $ARGUMENTS with a greeting.\n",
    );
    writeIn(p.cwd, ".warden/skills/tidy/SKILL.md", "---\nname: tidy\ndescription: Tidy the imports\n---\nTidy them.\n");
    t.type("/");
    const second = await t.waitFor("/scaffold <file>");
    expect(second).toMatch(/\/scaffold <file> +Make a file with a greeting \(user command\)/);
    expect(second).toMatch(/\/tidy +Tidy the imports \(project skill\)/);
    t.type("sc");
    await t.waitFor((s) => !s.includes("/review"));
    t.press("Tab");
    // Completed with a space after the name: the list is gone (a prompt with arguments lists nothing).
    await t.waitFor(/> \/scaffold *\n─/);
    t.press("C-u");

    await submit(t, "/help");
    const help = await t.waitFor("Your commands and skills:");
    expect(help).toMatch(/\/scaffold <file> +Make a file with a greeting \(user command\)/);
    expect(help).toMatch(/\/tidy +Tidy the imports \(project skill\)/);

    t.type("/scaf");
    await t.waitFor("> /scaf");
    t.press("Tab");
    await t.waitFor(/> \/scaffold *\n─/);
    await submit(t, "hello.txt");
    await t.waitFor("> /scaffold hello.txt");
    await t.waitFor("Scaffolded.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("Create hello.txt with a greeting."));
    expect(JSON.stringify(lines)).toContain("Create hello.txt with a greeting.");
  });

  it("chooses from the `/` list with the arrow keys: Enter runs the chosen built-in, Tab completes a skill", async () => {
    const p = tuiProject([{ content: [text("Tightened.")] }]);
    writeIn(p.home, "skills/tidy/SKILL.md", "---\nname: tidy\ndescription: Tidy the imports\n---\nTidy them.\n");
    writeIn(
      p.home,
      "skills/tighten/SKILL.md",
      "---\nname: tighten\ndescription: Tighten the loops\n---\nMake every loop tighter.\n",
    );
    const t = p.start();
    await t.waitFor(READY);
    t.type("/co");
    await t.waitFor(/❯ \/compact/);
    t.press("Down");
    await t.waitFor(/❯ \/cost/);
    t.press("Enter");
    // /cost ran: its report is on screen and the prompt is empty again.
    const cost = await t.waitFor(/Session [\w-]+ \(replay/);
    expect(cost).toMatch(/cost unknown \(no price known for a model used\)/);

    t.type("/ti");
    await t.waitFor(/❯ \/tidy +Tidy the imports \(user skill\)/);
    t.press("Down");
    await t.waitFor(/❯ \/tighten +Tighten the loops \(user skill\)/);
    t.press("Tab");
    await t.waitFor(/> \/tighten *\n─/);
    t.press("Enter");
    await t.waitFor("Tightened.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("Make every loop tighter."));
    expect(JSON.stringify(lines)).toContain("Make every loop tighter.");
  });
});
