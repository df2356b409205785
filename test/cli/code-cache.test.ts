// The built CLI compiles its headless chunk once and takes it from V8's code cache afterwards
// (scripts/cached-chunks.mjs). The cache must never change what a session does: a missing, stale
// or corrupt cache file only costs the saving, and WARDEN_CODE_CACHE=0 leaves nothing on disk.
// Runs dist/, which the tests' global setup keeps current (test/setup/build.ts).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../loop/helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "dist/cli.js");
const replay = join(root, "examples/hello.jsonl");

function runBuilt(cacheHome: string, env: Record<string, string> = {}, script = replay) {
  const home = tempDir();
  const run = spawnSync(process.execPath, [cli, "-p", "hi", "--model", `replay:${script}`], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...process.env,
      HOME: home,
      WARDEN_HOME: join(home, ".warden"),
      XDG_CACHE_HOME: cacheHome,
      WARDEN_TRACE_CODE_CACHE: "1",
      ...env,
    },
  });
  const state = /warden: code cache (\w+) (\S+)/.exec(run.stderr);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, state: state?.[1], file: state?.[2] };
}

describe.skipIf(!existsSync(cli))("the built CLI's code cache", () => {
  it("compiles on the first run, writes a private cache, and takes it on the next run with the same result", () => {
    const cacheHome = tempDir();
    const first = runBuilt(cacheHome);
    expect(first.status, first.stderr).toBe(0);
    expect(first.state).toBe("miss");
    const file = first.file as string;
    expect(file.startsWith(join(cacheHome, "warden", "code-cache"))).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(cacheHome, "warden", "code-cache")).mode & 0o777).toBe(0o700);

    const second = runBuilt(cacheHome);
    expect(second.status, second.stderr).toBe(0);
    expect(second.state).toBe("hit");
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toContain("examples/hello.jsonl");
  }, 120_000);

  it("keeps only the newest three caches of a chunk when it writes one (other builds' caches went on piling up)", () => {
    const cacheHome = tempDir();
    const folder = join(cacheHome, "warden", "code-cache");
    mkdirSync(folder, { recursive: true });
    // Five caches of older builds' headless chunks, a day apart, another chunk's, and a stranger.
    const old = ["AAAAAAA1", "AAAAAAA2", "AAAAAAA3", "AAAAAAA4", "AAAAAAA5"].map((hash, index) => {
      const name = `headless-${hash}.cjs-${process.version}-${process.arch}.bin`;
      writeFileSync(join(folder, name), "start-up");
      const at = Date.now() / 1000 - (index + 1) * 86_400;
      utimesSync(join(folder, name), at, at);
      return name;
    });
    const otherChunk = `anthropic-BBBBBBB1.cjs-${process.version}-${process.arch}.bin`;
    writeFileSync(join(folder, otherChunk), "start-up");
    writeFileSync(join(folder, "notes.txt"), "mine");

    const first = runBuilt(cacheHome);
    expect(first.status, first.stderr).toBe(0);
    expect(first.state).toBe("miss");
    const written = (first.file as string).split("/").pop() as string;
    // The new cache and the two newest of the old ones; nothing of another chunk, nothing else.
    expect(readdirSync(folder).sort()).toEqual([written, old[0], old[1], otherChunk, "notes.txt"].sort());
  }, 120_000);

  it("takes the cache written by a run that loaded the bash grammar (written before the grammar changes V8's flags)", () => {
    const cacheHome = tempDir();
    const bash = join(tempDir(), "bash.jsonl");
    const call = {
      type: "tool_use",
      id: "toolu_1",
      name: "Bash",
      input: { command: "echo from-bash", description: "x" },
    };
    writeFileSync(
      bash,
      `${JSON.stringify({ content: [call] })}\n${JSON.stringify({ content: [{ type: "text", text: "Done." }] })}\n`,
    );
    const first = runBuilt(cacheHome, {}, bash);
    expect(first.status, first.stderr).toBe(0);
    expect(first.state).toBe("miss");
    expect(existsSync(first.file as string)).toBe(true);
    // Before, turning V8's wasm flag on and off for the grammar left a cache every later run refused.
    const again = runBuilt(cacheHome, {}, bash);
    expect(again.status, again.stderr).toBe(0);
    expect(again.state).toBe("hit");
    expect(again.stdout).toBe(first.stdout);
    const plain = runBuilt(cacheHome);
    expect(plain.state).toBe("hit");
  }, 120_000);

  it("keeps a start-up cache it took after a run that compiled more without a turn of file tools", () => {
    const cacheHome = tempDir();
    const textOnly = join(tempDir(), "text-only.jsonl");
    writeFileSync(textOnly, `${JSON.stringify({ content: [{ type: "text", text: "Hello." }] })}\n`);
    const first = runBuilt(cacheHome, {}, textOnly);
    expect(first.state).toBe("miss");
    const file = first.file as string;
    const written = statSync(file);
    // A Bash call compiles the shell's path, which the cache is not to hold (only a first turn of
    // file tools completes it: test/cli/code-cache-tool-turn.test.ts).
    const bash = join(tempDir(), "bash.jsonl");
    const call = { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo hi", description: "x" } };
    writeFileSync(
      bash,
      `${JSON.stringify({ content: [call] })}\n${JSON.stringify({ content: [{ type: "text", text: "Done." }] })}\n`,
    );
    const withBash = runBuilt(cacheHome, {}, bash);
    expect(withBash.status, withBash.stderr).toBe(0);
    expect(withBash.state).toBe("hit");
    expect(withBash.stderr).not.toContain("warden: code cache wrote");
    expect(statSync(file).size).toBe(written.size);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);
  }, 120_000);

  it("compiles as usual when the cache file is corrupt, and replaces it with a good one", () => {
    const cacheHome = tempDir();
    const first = runBuilt(cacheHome);
    expect(first.status, first.stderr).toBe(0);
    writeFileSync(first.file as string, Buffer.from("not V8's code cache at all, just bytes".repeat(100)));

    const corrupt = runBuilt(cacheHome);
    expect(corrupt.status, corrupt.stderr).toBe(0);
    expect(corrupt.state).toBe("rejected");
    expect(corrupt.stdout).toBe(first.stdout);

    const after = runBuilt(cacheHome);
    expect(after.state).toBe("hit");
    expect(after.stdout).toBe(first.stdout);
  }, 120_000);

  it("neither reads nor writes a cache with WARDEN_CODE_CACHE=0", () => {
    const cacheHome = tempDir();
    const run = runBuilt(cacheHome, { WARDEN_CODE_CACHE: "0" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("examples/hello.jsonl");
    expect(readdirSync(cacheHome)).toEqual([]);
  }, 120_000);

  it("still runs when the cache folder cannot be created", () => {
    const cacheHome = join(tempDir(), "a-file");
    writeFileSync(cacheHome, "in the way of the cache folder");
    const run = runBuilt(cacheHome);
    expect(run.status, run.stderr).toBe(0);
    expect(run.state).toBe("miss");
    expect(run.stdout).toContain("examples/hello.jsonl");
  }, 120_000);
});
