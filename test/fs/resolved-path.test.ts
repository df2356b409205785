// resolvedPath and isPathWithin (src/fs/resolved-path.ts) skip Node's path rebuilding for paths
// that are already resolved; they must answer exactly what path.resolve and a path.relative
// comparison answer, for every shape of path, since the permission checks decide on them.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { isPathWithin, isResolvedPath, resolvedPath } from "../../src/fs/resolved-path.js";

const SHAPES = [
  "/",
  "//",
  "/a",
  "/a/",
  "/a//b",
  "/a/./b",
  "/a/../b",
  "/a/..",
  "/a/.",
  "/a/.b",
  "/a/..b",
  "/a/b..",
  "/a/b.",
  "/..",
  "/../a",
  "/work/project",
  "/work/project/src/file.ts",
  "/work/projects",
  "/work/project-other/x",
  "/work/project/",
  "/work/project/../project/x",
  "relative/x",
  "./x",
  "../x",
  ".",
  "",
  "~/x",
];

function relativeWithin(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

describe("resolvedPath", () => {
  it("is path.resolve, with or without a base", () => {
    for (const path of SHAPES) {
      expect(resolvedPath(path), path).toBe(resolve(path));
      expect(resolvedPath(path, "/base/dir"), path).toBe(resolve("/base/dir", path));
    }
  });

  it("recognises exactly the paths that resolve gives back unchanged", () => {
    for (const path of SHAPES) expect(isResolvedPath(path), path).toBe(path !== "" && resolve(path) === path);
  });
});

describe("isPathWithin", () => {
  it("answers what comparing through path.relative answers, for every pair", () => {
    let pairs = 0;
    for (const dir of SHAPES) {
      for (const target of SHAPES) {
        expect(isPathWithin(dir, target), `${dir} ⊇ ${target}`).toBe(relativeWithin(dir, target));
        pairs++;
      }
    }
    expect(pairs).toBe(SHAPES.length ** 2);
  });

  it("tells a folder's own files from a sibling that shares its name's start", () => {
    expect(isPathWithin("/work/project", "/work/project/src/file.ts")).toBe(true);
    expect(isPathWithin("/work/project", "/work/project")).toBe(true);
    expect(isPathWithin("/work/project", "/work/projects")).toBe(false);
    expect(isPathWithin("/work/project", "/work/project-other/x")).toBe(false);
    expect(isPathWithin("/", "/anything/at/all")).toBe(true);
  });
});
