// A `/name` the session has no command or skill for is answered on screen, not sent to the model
// as a prompt (where `/rewind` started the model's next scripted turn, tools and all); a prompt
// that starts with a path is still a prompt.
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptLines, transcriptWhen, tuiProject } from "../helpers/tui-project.js";
import { text } from "../loop/helpers.js";

afterEach(killTerminals);

describe("unknown slash commands (tmux, replay provider)", () => {
  it("says a command is unknown and sends nothing; a path at the start is sent", async () => {
    const p = tuiProject([{ content: [text("About that path.")] }]);
    const t = p.start();
    await t.waitFor(READY);
    await submit(t, "/rewind");
    await t.waitFor("Unknown command /rewind: nothing was sent to the model");
    await submit(t, "/tmp/x is missing");
    await t.waitFor("About that path.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("About that path."));
    const prompts = lines
      .map((line) => line.message as { role?: string; content?: Array<{ type: string; text?: string }> } | undefined)
      .filter((m) => m?.role === "user")
      .flatMap((m) => m?.content ?? [])
      .map((block) => block.text ?? "");
    expect(prompts).toContain("/tmp/x is missing");
    expect(prompts).not.toContain("/rewind");
    expect(JSON.stringify(transcriptLines(p))).not.toContain('"/rewind"');
  });
});
