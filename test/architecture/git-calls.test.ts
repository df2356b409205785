// Every git Warden runs for itself goes through fs/git-run.ts (or, for a configuration read,
// fs/git-config-read.ts), which turns off the repository's hooks, filters and fsmonitor. A new
// execFile("git", ...) elsewhere would be a way around it: this test finds one by reading the sources.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "..", "src");
const ALLOWED = new Set(["fs/git-run.ts", "fs/git-config-read.ts"]);
// A process started with "git" as its program, by any of node's spawning functions or a wrapper
// named run (promisify(execFile)), with the quote style of the call.
const GIT_SPAWN = /\b(execFile|execFileSync|spawn|spawnSync|exec|execSync|run)\(\s*["'`]git[\s"'`]/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("Warden's own git", () => {
  it("is started only by fs/git-run.ts and fs/git-config-read.ts", () => {
    const offenders = sources(SRC)
      .map((path) => relative(SRC, path))
      .filter((path) => !ALLOWED.has(path) && GIT_SPAWN.test(readFileSync(join(SRC, path), "utf8")));
    expect(offenders).toEqual([]);
  });
});
