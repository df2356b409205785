// A terminal made narrower, as a person sees it: each line of the old, wider frame wraps onto more
// rows, and ink erased only as many rows as the frame had, so pieces of the old frame (its rules)
// stayed above the new one. The screen is drawn again whole at the new width, the conversation
// included. The built binary in tmux.
import { afterEach, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { text } from "../loop/helpers.js";

afterEach(killTerminals);

/** The rows that are a horizontal rule (the prompt's frame), however wide. */
const rules = (screen: string) => screen.split("\n").filter((row) => /^─+$/.test(row.trimEnd()));

it("narrowing the terminal leaves no piece of the old frame above the new one", async () => {
  const p = tuiProject([{ content: [text("the answer before the resize")] }]);
  const terminal = p.start([], {}, { width: 120, height: 40 });
  await terminal.waitFor(READY);
  await submit(terminal, "a question");
  await terminal.waitFor((screen) => screen.includes("the answer before the resize") && READY.test(screen));

  terminal.command("resize-window", "-x", "70");
  // Both rules of the prompt drawn at the new width: the frame has been drawn after the resize.
  const screen = await terminal.waitFor(
    (s) => READY.test(s) && rules(s).filter((row) => row.trimEnd().length === 70).length >= 2,
  );
  // Only those two: before the fix the old 120-column rules were left above, wrapped.
  expect(rules(screen)).toHaveLength(2);
  // The conversation is still there, once.
  expect(screen.split("the answer before the resize")).toHaveLength(2);
  expect(screen.split("> a question")).toHaveLength(2);
});
