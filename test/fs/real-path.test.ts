// Where a path really leads, for the boundary checks: a path that goes through a file
// (`notes.txt/x`) or a loop of links is no error there (the command itself fails on it), and the
// links before that point are still followed.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pathsToCheck, resolveRealPath } from "../../src/fs/real-path.js";

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "warden-real-path-")));
  mkdirSync(join(root, "real"));
  writeFileSync(join(root, "real", "notes.txt"), "x\n");
  symlinkSync(join(root, "real"), join(root, "link"));
  symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
  symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
});

describe("resolveRealPath", () => {
  it("resolves a path through a file to where its parent really is, following the links before it", () => {
    expect(resolveRealPath(join(root, "link", "notes.txt", "x"))).toBe(join(root, "real", "notes.txt", "x"));
    expect(pathsToCheck(join(root, "link", "notes.txt", "x", "y"))).toEqual([
      join(root, "link", "notes.txt", "x", "y"),
      join(root, "real", "notes.txt", "x", "y"),
    ]);
  });

  it("ends on a loop of links instead of throwing", () => {
    expect(resolveRealPath(join(root, "loop-a", "x"))).toMatch(new RegExp(`^${root}/loop-[ab]/x$`));
  });
});
