// What vitest's global setups build: the process tests run the built CLI (dist/) and compiled test
// fixtures, never TypeScript through tsx (a spawn under tsx costs ~1-2.6 s, the built CLI ~0.25 s).
// So that a stale build can never be tested and nobody has to remember to build, dist/ is rebuilt
// whenever a file it is built from is newer than the last build's stamp, and the fixtures that
// tests spawn (MCP servers, extra tools, small scripts) are bundled into test/.build/ likewise.
import { execFileSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { builtFixture, FIXTURE_BUILD_DIR, FIXTURE_SOURCES, REPO_ROOT } from "../helpers/built.js";

/** The newest modification time (ms) under `paths` (files, or folders walked whole); a missing path counts as new. */
function newestMtime(paths: readonly string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) {
      newest = Number.POSITIVE_INFINITY;
      return;
    }
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (stat.mtimeMs > newest) newest = stat.mtimeMs;
  };
  for (const path of paths) visit(path);
  return newest;
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * One build at a time across concurrent runs (a watch run beside a one-off run): the lock is a
 * file created exclusively; a run that finds it waits, then looks again whether a build is due.
 */
function withLock(lock: string, work: () => void): void {
  const staleAfterMs = 300_000;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch {
      // A lock older than any build is a killed run's leftover.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > staleAfterMs) unlinkSync(lock);
      sleepSync(200);
    }
  }
  try {
    work();
  } finally {
    unlinkSync(lock);
  }
}

/** Marks a build as made from the sources as they were at `startedAt`. */
function writeStamp(stamp: string, startedAt: Date, content = ""): void {
  writeFileSync(stamp, content);
  // The time taken before the build: a source saved during it makes the next run build again.
  utimesSync(stamp, startedAt, startedAt);
}

const DIST_INPUTS = [
  "src",
  "scripts/build.mjs",
  "scripts/merge-chunks.mjs",
  "scripts/cached-chunks.mjs",
  "scripts/tool-schemas.mjs",
  "package.json",
];
const DIST_STAMP = join(REPO_ROOT, "dist/.build-stamp");

function distIsCurrent(): boolean {
  if (!existsSync(DIST_STAMP) || !existsSync(join(REPO_ROOT, "dist/cli.js"))) return false;
  return statSync(DIST_STAMP).mtimeMs >= newestMtime(DIST_INPUTS.map((p) => join(REPO_ROOT, p)));
}

export function buildDist(): void {
  if (distIsCurrent()) return;
  withLock(join(REPO_ROOT, ".build.lock"), () => {
    if (distIsCurrent()) return;
    const startedAt = Date.now();
    // The build writes dist/.build-stamp itself (so does `npm ci`'s prepare step).
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: REPO_ROOT, stdio: "inherit" });
    console.log(`test setup: dist/ was older than its sources; rebuilt in ${Date.now() - startedAt} ms`);
  });
}

const FIXTURE_STAMP = join(FIXTURE_BUILD_DIR, ".build-stamp.json");

/** The fixtures' build is current when no file esbuild read for it (its metafile's inputs) changed. */
function fixturesAreCurrent(): boolean {
  if (!existsSync(FIXTURE_STAMP)) return false;
  if (!FIXTURE_SOURCES.every((source) => existsSync(builtFixture(source)))) return false;
  const stamped = JSON.parse(readFileSync(FIXTURE_STAMP, "utf8")) as { sources?: string[]; inputs?: string[] };
  if (JSON.stringify(stamped.sources) !== JSON.stringify(FIXTURE_SOURCES)) return false;
  return statSync(FIXTURE_STAMP).mtimeMs >= newestMtime((stamped.inputs ?? []).map((p) => join(REPO_ROOT, p)));
}

export async function buildFixtures(): Promise<void> {
  if (fixturesAreCurrent()) return;
  const startedAt = new Date();
  mkdirSync(FIXTURE_BUILD_DIR, { recursive: true });
  const result = await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: FIXTURE_SOURCES.map((source) => ({ in: `test/${source}`, out: source.replace(/\.ts$/, "") })),
    outdir: FIXTURE_BUILD_DIR,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // Split as dist/ is: without it every module behind a dynamic import() (and what it imports,
    // zod included) was wrapped in esbuild's lazy initialiser, and a module-level `z.string()` in
    // a file that imports zod as `import * as z` ran before zod's classes existed.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    format: "esm",
    platform: "node",
    target: "node20",
    // Bundled CommonJS dependencies may call require(): give the module one.
    banner: {
      js: "import { createRequire as __wardenRequire } from 'node:module'; const require = __wardenRequire(import.meta.url);",
    },
    sourcemap: "inline",
    metafile: true,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes("node_modules/"));
  writeStamp(FIXTURE_STAMP, startedAt, JSON.stringify({ sources: FIXTURE_SOURCES, inputs }));
}
