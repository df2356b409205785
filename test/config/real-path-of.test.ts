// Where a memory file really is (src/config/memory-boundary.ts, realPathOf): every link followed, and
// nothing for a path with no file behind it (a missing name, a link to nothing), which is most of
// the places a session looks for memory files at start.
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realPathOf, rootOf } from "../../src/config/memory-boundary.js";
import { tempDir } from "../loop/helpers.js";

describe("realPathOf", () => {
  it("is the real path of a file or a folder, links followed", () => {
    const dir = realpathSync(tempDir("warden-real-"));
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "CLAUDE.md"), "memory");
    symlinkSync(join(dir, "real"), join(dir, "linked"));
    symlinkSync(join(dir, "real", "CLAUDE.md"), join(dir, "AGENTS.md"));
    expect(realPathOf(join(dir, "real", "CLAUDE.md"))).toBe(join(dir, "real", "CLAUDE.md"));
    expect(realPathOf(join(dir, "linked", "CLAUDE.md"))).toBe(join(dir, "real", "CLAUDE.md"));
    expect(realPathOf(join(dir, "AGENTS.md"))).toBe(join(dir, "real", "CLAUDE.md"));
    expect(realPathOf(join(dir, "linked"))).toBe(join(dir, "real"));
  });

  it("is undefined where there is no file: a missing name, a missing folder, a link to nothing", () => {
    const dir = realpathSync(tempDir("warden-real-"));
    symlinkSync(join(dir, "gone.md"), join(dir, "dangling.md"));
    expect(realPathOf(join(dir, "CLAUDE.md"))).toBeUndefined();
    expect(realPathOf(join(dir, "no", "such", "CLAUDE.md"))).toBeUndefined();
    expect(realPathOf(join(dir, "dangling.md"))).toBeUndefined();
    // A root that cannot be resolved is the folder as spelled.
    expect(rootOf(join(dir, "missing"))).toBe(join(dir, "missing"));
  });
});
