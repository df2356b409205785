// The built CLI's start-up path stays a few files (issue 19). Node pays per ES module file to
// resolve, read, compile and link it; when esbuild's code splitting left the headless session as
// ~65 small chunks, that cost grew with every feature until spawn → first request was 3.5x
// `node -e 0`. scripts/merge-chunks.mjs groups each path's static graph into one file; this test
// follows the built files' own imports and fails when a path grows back into many.
// Runs dist/, which the tests' global setup keeps current (test/setup/build.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../../dist", import.meta.url));

// A cached chunk's shim loads its body (scripts/cached-chunks.mjs) before any of its code runs,
// so the body counts as a static import; the body's dynamic imports are calls to __wardenImport.
const STATIC_IMPORT =
  /^(?:import|export)\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|^import\s*['"](\.{1,2}\/[^'"]+)['"]|__wardenCompileBody\(new URL\("(\.\/[^"]+)"/gm;
const DYNAMIC_IMPORT = /(?:\bimport|__wardenImport)\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function relativeImports(file: string, pattern: RegExp): string[] {
  const code = readFileSync(file, "utf8");
  return [...code.matchAll(pattern)].map((match) =>
    resolve(dirname(file), (match[1] ?? match[2] ?? match[3]) as string),
  );
}

/** Every file `entry` loads before any of its code runs: itself and its static imports, transitively. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...relativeImports(file, STATIC_IMPORT));
  }
  return seen;
}

/** The file `from`'s code imports dynamically whose name starts with `prefix`. */
function dynamicTarget(from: Iterable<string>, prefix: string): string {
  for (const file of from) {
    const found = relativeImports(file, DYNAMIC_IMPORT).find((target) => target.split("/").pop()?.startsWith(prefix));
    if (found) return found;
  }
  throw new Error(`no dynamic import of ${prefix}* in the built files`);
}

/** The built file whose source map names `source` (a path under src/). */
function chunkWithSource(source: string): string {
  const chunks = join(dist, "chunks");
  for (const name of readdirSync(chunks)) {
    if (!name.endsWith(".js.map") && !name.endsWith(".cjs.map")) continue;
    const map = JSON.parse(readFileSync(join(chunks, name), "utf8")) as { sources: string[] };
    if (map.sources.some((path) => path.endsWith(source))) return join(chunks, name.slice(0, -".map".length));
  }
  throw new Error(`no built file holds ${source}`);
}

describe("the built CLI's start-up files", () => {
  const cli = join(dist, "cli.js");

  it("loads the headless session (warden -p, the SDK's executable) from at most three files", () => {
    const session = dynamicTarget([cli], "headless-");
    const files = staticClosure(session);
    // cli.js, the headless chunk's shim and its body (compiled from V8's code cache).
    expect(files.size, [...files].join(", ")).toBeLessThanOrEqual(3);
    expect([...files].some((file) => file.endsWith(".cjs"))).toBe(true);
  });

  it("loads the Anthropic provider, its SDK included, from one more file", () => {
    const headless = staticClosure(dynamicTarget([cli], "headless-"));
    const provider = dynamicTarget(headless, "anthropic-");
    const providerFiles = staticClosure(provider);
    // The SDK the adapter imports when it makes its client: in the same file, so nothing is added.
    for (const file of relativeImports(provider, DYNAMIC_IMPORT)) providerFiles.add(file);
    // A cached chunk's shim and its body are one chunk split in two (scripts/cached-chunks.mjs).
    const added = [...providerFiles].filter((file) => !headless.has(file) && !file.endsWith(".cjs"));
    expect(added, added.join(", ")).toHaveLength(1);
  });

  it("draws the interactive session's plain prompt from one small file, before the session's code loads", () => {
    // src/ui/early-input.ts draws the prompt and captures keys while the rest loads; when it shared
    // a chunk with the interactive session it waited on the 1.4 MB headless chunk (issue 14).
    // cli.js itself loads nothing before it runs: a bare import of esbuild's runtime helpers there
    // once loaded the whole headless chunk ahead of the prompt (1.4x the floor instead of ~1.0x).
    expect([...staticClosure(cli)]).toEqual([cli]);
    const prompt = dynamicTarget([cli], "early-input-");
    const files = staticClosure(prompt);
    expect([...files].filter((file) => file !== cli)).toEqual([prompt]);
    // Nothing but Node's own modules: no package to resolve either.
    const bare = [...readFileSync(prompt, "utf8").matchAll(/^import[^;]*?['"]([^'".][^'"]*)['"]/gm)].map((m) => m[1]);
    expect(bare.filter((specifier) => !specifier?.startsWith("node:"))).toEqual([]);
  });

  it("lets keys typed at the plain prompt be echoed between compiling and running each large chunk", () => {
    // The headless and UI chunks load after the prompt is drawn; each one's compile and run, as one
    // synchronous step, held a key typed meanwhile unechoed for the whole step (issue 39).
    const headlessShim = dynamicTarget([cli], "headless-");
    const uiShim = join(
      dist,
      "chunks",
      readdirSync(join(dist, "chunks")).find((name) => /^ui-[\w-]+\.js$/.test(name)) ?? "ui-",
    );
    for (const shim of [headlessShim, uiShim]) {
      const code = readFileSync(shim, "utf8");
      const turn = "await new Promise((resolve) => setImmediate(resolve));";
      const compile = code.indexOf("const __compiled = __wardenCompileBody(");
      const run = code.indexOf("const __body = __wardenRunBody(");
      expect(compile, shim).toBeGreaterThan(0);
      expect(code.lastIndexOf(turn, compile), `${shim}: a turn before compiling`).toBeGreaterThan(0);
      expect(code.slice(compile, run), `${shim}: a turn between compiling and running`).toContain(turn);
    }
  });

  it("takes only the parts of zod the sources use, without zod's namespace objects", () => {
    // `import { z } from "zod"` names zod's `z` export, a namespace object: the headless body then
    // held all of zod (~150 KB more) and built its namespaces at every start (~900 getters, ~3 ms).
    // `import * as z from "zod"` lets esbuild turn each z.x into the function itself.
    const body = readFileSync(dynamicTarget([cli], "headless-").replace(/\.js$/, ".cjs"), "utf8");
    expect(body.match(/__export\((?:external|core|schemas)_exports\d*,/g) ?? []).toEqual([]);
    const sources = join(dist, "..", "src");
    const namedZ = (readdirSync(sources, { recursive: true }) as string[])
      .filter((name) => name.endsWith(".ts") || name.endsWith(".tsx"))
      .filter((name) =>
        /import\s*(?:type\s*)?\{\s*z\s*\}\s*from\s*["']zod["']/.test(readFileSync(join(sources, name), "utf8")),
      );
    expect(namedZ, 'import * as z from "zod" instead').toEqual([]);
  });

  it("maps each code-cached body back to the TypeScript sources (its source map, beside it)", () => {
    // A stack trace from a body gives a position in its long lines: the map must lead to src/.
    const bodies = readdirSync(join(dist, "chunks")).filter((name) => name.endsWith(".cjs"));
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    for (const body of bodies) {
      const map = JSON.parse(readFileSync(join(dist, "chunks", `${body}.map`), "utf8")) as { sources: string[] };
      const ours = map.sources.filter((source) => source.startsWith("../../src/"));
      expect(ours.length, body).toBeGreaterThan(0);
      for (const source of ours) expect(existsSync(resolve(dist, "chunks", source)), `${body}: ${source}`).toBe(true);
    }
  });

  it("loads the MCP manager (before the first request when a server's tools are remembered) from one more file", () => {
    const headless = staticClosure(dynamicTarget([cli], "headless-"));
    const manager = chunkWithSource("src/mcp/manager.ts");
    const added = [...staticClosure(manager)].filter((file) => !headless.has(file));
    expect(added).toEqual([manager]);
  });

  it("loads none of Node's modules for nothing: the Bash analysis's chunk re-exports only loaded code", () => {
    // Rollup kept `import 'node:zlib';` and a dozen more in each chunk that only re-exports moved
    // code, so the first Bash call loaded zlib, https, dns and tty, which nothing there uses.
    const analysis = dynamicTarget(staticClosure(dynamicTarget([cli], "headless-")), "check-");
    expect(readFileSync(analysis, "utf8")).toMatch(/^export \{[^}]*checkBashCommandPermission/m);
    const chunks = join(dist, "chunks");
    const files = [
      cli,
      ...readdirSync(chunks)
        .filter((name) => name.endsWith(".js"))
        .map((name) => join(chunks, name)),
    ];
    const bare = files.filter((file) => /^import\s*['"]node:[\w/]+['"]/m.test(readFileSync(file, "utf8")));
    expect(bare).toEqual([]);
  });

  it("connects MCP servers without loading ajv before the first request (it loads at the first form to check)", () => {
    // A remembered server's tools reach the first request through the manager; ajv is ~70 files
    // of CommonJS, and loading them there put ~50-100 ms of CPU before every such request.
    const files = staticClosure(chunkWithSource("src/mcp/manager.ts"));
    const importingAjv = [...files].filter((file) =>
      /^import[^;]*['"]ajv(?:\/[^'"]*)?['"]|require\(['"]ajv(?:\/[^'"]*)?['"]/m.test(readFileSync(file, "utf8")),
    );
    expect(importingAjv).toEqual([]);
  });
});
