// A teammate's worktree name stays a valid worktree name for every valid teammate name (up to 64
// characters of its own), and two teammates of the same name get different worktrees.
import { describe, expect, it } from "vitest";
import { TEAM_NAME_PATTERN } from "../../../src/tool/team.js";
import { teammateWorktreeName } from "../../../src/tools/agent/teammate.js";
import { checkWorktreeName } from "../../../src/tools/worktree-shared/git-worktree.js";

describe("a teammate's worktree name", () => {
  it("is a valid worktree name even for the longest teammate name", () => {
    const longest = "a".repeat(64);
    expect(TEAM_NAME_PATTERN.test(longest)).toBe(true);
    const name = teammateWorktreeName(longest, "a3f66bad7dfa5");
    expect(checkWorktreeName(name)).toBeUndefined();
    expect(name).toBe(`teammate-${"a".repeat(40)}-bad7dfa5`);
  });

  it("tells two teammates of the same name apart by their agent ids", () => {
    expect(teammateWorktreeName("alice", "a111111111111")).not.toBe(teammateWorktreeName("alice", "a222222222222"));
    expect(teammateWorktreeName("alice", "a3f66bad7dfa5")).toBe("teammate-alice-bad7dfa5");
  });
});
