// "Yes, and don't ask again" answered for a subagent that works in a git worktree of its own: the
// rule goes to the settings of the session's folder, as the dialog says (".warden/settings.local.json"
// there), not into the worktree, a throwaway checkout whose settings the session never reads; and it
// holds at once for the rest of the session, the parent's calls too (it held for the subagent alone).
// The built binary in tmux, a real git repository.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { killTerminals, READY, submit, tuiProject } from "../helpers/tui-project.js";
import { text, toolUse } from "../loop/helpers.js";

afterEach(killTerminals);

it("saves a worktree subagent's 'don't ask again' rule in the session folder's settings, and the parent is not asked again", async () => {
  const p = tuiProject(
    [
      {
        content: [
          toolUse("a1", "Agent", {
            description: "isolated edit",
            prompt: "Touch a file.",
            subagent_type: "general-purpose",
            isolation: "worktree",
          }),
        ],
      },
      { agent: "isolated edit", content: [toolUse("s1", "Bash", { command: "touch agent-made.txt" })] },
      { agent: "isolated edit", content: [text("Touched it in my worktree.")] },
      { content: [toolUse("p1", "Bash", { command: "touch parent-made.txt" })] },
      { content: [text("The agent is done.")] },
    ],
    { "README.md": "# demo\n" },
  );
  const git = (...args: string[]) => execFileSync("git", args, { cwd: p.cwd, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "init");

  const t = p.start([], {}, { width: 160, height: 40 });
  await t.waitFor(READY);
  await submit(t, "start the agent");
  const dialog = await t.waitFor("Do you want to proceed?");
  expect(dialog).toContain("don't ask again for Bash(touch:*) (in .warden/settings.local.json)");
  t.type("2");
  const after = await t.waitFor("The agent is done.");
  // The parent's own touch ran without a second question.
  expect(after).not.toContain("Do you want to proceed?");
  expect(existsSync(join(p.cwd, "parent-made.txt"))).toBe(true);

  const saved = JSON.parse(readFileSync(join(p.cwd, ".warden/settings.local.json"), "utf8"));
  expect(saved.permissions.allow).toEqual(["Bash(touch:*)"]);
  // The command ran in the worktree, which got no settings file of its own; the checkout is untouched.
  const [worktree] = readdirSync(join(p.cwd, ".worktrees"));
  expect(existsSync(join(p.cwd, ".worktrees", worktree as string, "agent-made.txt"))).toBe(true);
  expect(existsSync(join(p.cwd, ".worktrees", worktree as string, ".warden/settings.local.json"))).toBe(false);
  expect(existsSync(join(p.cwd, "agent-made.txt"))).toBe(false);
});
