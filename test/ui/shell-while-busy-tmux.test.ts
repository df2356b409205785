// `!command` typed while the model works: queued, it reached the model as the words "!echo ...",
// and never ran. It goes back into the prompt, and sent once the prompt is done, it runs.
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptLines, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

describe("!command while the model works (tmux, replay provider)", () => {
  it("is not sent to the model as text; it comes back into the prompt and runs once sent idle", async () => {
    const p = tuiProject([
      { content: [toolUse("t1", "Bash", { command: "echo working; sleep 3" })] },
      { content: [text("Finished the slow part.")] },
    ]);
    const t = p.start(["--allowedTools", "Bash"]);
    await t.waitFor(READY);
    await submit(t, "run it");
    await t.waitFor(/Bash\(echo working; sleep 3\)[^\n]*\n\s+working\b/);
    await submit(t, "!echo from-the-person");
    await t.waitFor("a !command runs when the model is not working");
    await t.waitFor("Finished the slow part.");
    await t.waitFor("> !echo from-the-person");
    t.press("Enter");
    await t.waitFor(/Bash\(echo from-the-person\)\n\s+⎿\s+from-the-person/);
    const sentAsText = transcriptLines(p)
      .map((line) => line.message as { role?: string; content?: Array<{ type: string; text?: string }> } | undefined)
      .flatMap((m) => (m?.role === "user" ? (m.content ?? []) : []))
      .some((block) => block.text === "!echo from-the-person");
    expect(sentAsText).toBe(false);
  });
});
