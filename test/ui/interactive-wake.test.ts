// An idle interactive session takes a turn by itself when a background command it started ends:
// nobody types, yet the model gets the task's notice and answers. The built binary in tmux, real
// bash, against the replay provider.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptWhen, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

describe("an idle interactive session wakes (tmux, replay provider)", () => {
  it("answers a background command's end without a prompt, and says on screen what woke it", async () => {
    const p = tuiProject([
      {
        content: [
          // It ends only once the test lets it (the file "go"), after the prompt: no race with its end.
          toolUse("b1", "Bash", {
            command: "while [ ! -e go ]; do sleep 0.05; done; echo built",
            run_in_background: true,
            description: "Build it",
          }),
        ],
      },
      { content: [text("The build runs in the background.")] },
      // Nobody types: this answer comes from the turn the task's end started.
      { content: [text("The build has finished: it printed built.")] },
    ]);
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "build it in the background");
    await t.waitFor("The build runs in the background.");
    writeFileSync(join(p.cwd, "go"), "");
    const screen = await t.waitFor("The build has finished: it printed built.");
    expect(screen).toMatch(/⏵ Background task \w+: command "Build it"/);

    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("The build has finished"));
    const all = JSON.stringify(lines);
    // The woken turn's request carried the notice as a reminder; no user prompt was made up.
    expect(all).toMatch(/Background task \w+: command \\"Build it\\"[^"]*completed with exit code 0/);
    expect(all).not.toContain('"text":""');
  });
});
