// The hint side channel: <warden-hint .../> (and Claude Code's <claude-code-hint .../>) tags a
// command prints are taken out of the output; the call keeps them whole and the model reads only
// their messages.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extractHints } from "../../../src/tools/bash/hints.js";
import { textOfResult } from "../../orchestration/fixtures.js";
import { createSession, type Session } from "./harness.js";

let session: Session;
beforeEach(() => {
  session = createSession();
});
afterEach(async () => {
  await session.cleanup();
});

describe("hint tags in Bash output", () => {
  it("takes both tag names out of what the model reads and gives it their messages", async () => {
    const command = [
      "echo 'build ok'",
      `echo '<warden-hint kind="next-step" message="Run npm run e2e to check the UI too"/>'`,
      `echo "tests: 12 passed <claude-code-hint type='plugin' message='Install the lint plugin'/> done"`,
    ].join("; ");
    const text = textOfResult(await session.run("Bash", { command }));
    expect(text).not.toContain("-hint");
    expect(text).toContain("build ok\ntests: 12 passed  done");
    expect(text).toContain("Hint from the command (next-step): Run npm run e2e to check the UI too");
    expect(text).toContain("Hint from the command (plugin): Install the lint plugin");
  });

  it("keeps every hint's attributes for front ends, and leaves look-alike text alone", () => {
    const { text, hints } = extractHints(
      "a\n<warden-hint kind=\"x\" data='1'/>\nb <warden-hint nope>\n<claude-code-hintish/>\n",
    );
    expect(hints).toEqual([{ tag: "warden-hint", attributes: { kind: "x", data: "1" } }]);
    expect(text).toBe("a\nb <warden-hint nope>\n<claude-code-hintish/>\n");
  });
});
