// The interactive session asks once per project when its memory files import files from outside
// it (Claude Code's external-imports question), before the system prompt is built, and remembers
// the answer: asked again neither after "no" nor after "yes". The built binary in tmux.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killTerminals, READY, tuiProject, writeIn } from "../helpers/tui-project.js";

afterEach(killTerminals);

const QUESTION = "This project's memory files import files from outside it";

function decisions(home: string): Record<string, string> {
  const path = join(home, "memory-imports.json");
  return existsSync(path)
    ? (JSON.parse(readFileSync(path, "utf8")) as { projects: Record<string, string> }).projects
    : {};
}

describe("external memory imports (tmux, replay provider)", () => {
  for (const [answer, decision] of [
    ["2", "declined"],
    ["1", "approved"],
  ] as const) {
    it(`asks once, lists the outside files and remembers "${decision}"`, async () => {
      const p = tuiProject([]);
      writeIn(p.home, ".ssh/id_rsa", "SSHSECRET");
      writeIn(p.cwd, "CLAUDE.md", "Rules @~/.ssh/id_rsa\n");
      const first = p.start();
      const screen = await first.waitFor(QUESTION);
      expect(screen).toContain(join(p.home, ".ssh", "id_rsa"));
      await first.pressInNewDialog(answer, READY);
      expect(Object.values(decisions(p.home))).toEqual([decision]);
      first.press("C-d");
      expect(await first.exitCode()).toBe(0);

      const second = p.start();
      const next = await second.waitFor(READY);
      expect(next).not.toContain(QUESTION);
    }, 60_000);
  }

  it("does not ask when every import is inside the project", async () => {
    const p = tuiProject([]);
    writeIn(p.cwd, "docs/style.md", "Use tabs");
    writeIn(p.cwd, "CLAUDE.md", "Rules @docs/style.md\n");
    const t = p.start();
    expect(await t.waitFor(READY)).not.toContain(QUESTION);
    expect(decisions(p.home)).toEqual({});
  }, 60_000);
});
