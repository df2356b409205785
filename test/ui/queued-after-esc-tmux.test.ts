// A message typed while a tool runs waits for the model's next request. Esc stops the prompt before
// that request: the message was never read, and it comes back into the prompt (as in Claude Code)
// instead of staying queued unseen and riding along with whatever is sent next.
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, submit, transcriptWhen, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

describe("queued messages and Esc (tmux, replay provider)", () => {
  it("puts a queued message the model never read back into the prompt, before the draft, and sends it once", async () => {
    const p = tuiProject([
      { content: [toolUse("t1", "Bash", { command: "echo working; sleep 30" })] },
      { content: [text("Read what you sent.")] },
    ]);
    const t = p.start(["--allowedTools", "Bash"]);
    await t.waitFor(READY);
    await submit(t, "run it");
    await t.waitFor(/Bash\(echo working; sleep 30\)[^\n]*\n\s+working\b/);
    await submit(t, "also check the logs");
    await t.waitFor("(queued: the model reads it at its next turn)");
    t.type("and the disk");
    await t.waitFor("> and the disk");
    t.press("Escape");
    const screen = await t.waitFor(/> also check the logs\n\s+and the disk/);
    expect(screen).toContain("back in the prompt");

    t.press("Enter");
    await t.waitFor("Read what you sent.");
    const lines = await transcriptWhen(p, (l) => JSON.stringify(l).includes("Read what you sent."));
    const sent = lines
      .map((line) => line.message as { role?: string; content?: Array<{ type: string; text?: string }> } | undefined)
      .filter((m) => m?.role === "user")
      .flatMap((m) => m?.content ?? [])
      .filter((block) => block.type === "text" && block.text?.includes("also check the logs"))
      .map((block) => block.text);
    expect(sent).toEqual(["also check the logs\nand the disk"]);
  });
});
