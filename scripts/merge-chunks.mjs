// Re-chunks esbuild's output with rollup so that a path a user takes loads a few large files instead
// of dozens of small ones.
//
// esbuild splits code into one chunk per set of entry points that share it: with ~60 dynamic
// import()s in the code base, the headless session's own static graph came out as ~65 files.
// Node resolves, opens, reads, compiles and links each ES module file on its own, and that per-file
// cost was most of the start-up that had grown since (measured for issue 19: CPU to the first
// request ~435 ms with 66 files, ~375 ms with 5, on the same loaded machine).
//
// esbuild cannot be told how to group chunks; rollup can (`manualChunks`). Its input here is
// esbuild's finished ES modules, not our TypeScript, so no TypeScript or CommonJS handling is
// needed, and tree-shaking stays esbuild's. Each group below gets, in one file, every module of
// that path's static graph not already claimed by an earlier group; everything else keeps the
// chunking rollup derives from the dynamic imports, so code that only some sessions need (other
// providers, MCP, the bash grammar, ink) still loads only when it is used.
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { rollup } from "rollup";

/** Paths users take, in order of priority: a module goes to the first group whose path reaches it. */
const GROUPS = [
  // The plain prompt of an interactive session (src/ui/early-input.ts and its key parser), drawn
  // before anything else loads: a file of its own that imports no other chunk. Left to rollup, it
  // shared a chunk with the interactive session, whose static import of the 1.4 MB headless chunk
  // put ~250 ms of loading between Node's start and the prompt (issue 14). It does not use
  // esbuild's runtime helpers, whose bare import is dropped (see withoutRuntimeImports), so that
  // the helpers stay in the headless chunk rather than every chunk importing this one.
  { name: "early-input", entry: "src/ui/early-input.ts" },
  // `warden -p` and the SDK's executable: everything loaded before the first request.
  { name: "headless", entry: "src/cli/commands/session.ts" },
  // The provider most sessions use: its adapter and the SDK it imports when it makes its client.
  { name: "anthropic", entry: "src/providers/anthropic.ts", withDynamicImports: true },
  // A session with MCP servers: their manager, loaded before the first request when a server's
  // tools are remembered, in one file rather than three (each ES module file costs its own load).
  { name: "mcp-manager", entry: "src/mcp/manager.ts" },
  // The interactive session beyond what the headless path already loads (ink stays apart).
  { name: "interactive", entry: "src/cli/interactive/run.ts" },
  // The interactive UI (ink, react, yoga and our components): a name of its own, so that its code
  // can be compiled through V8's code cache (cached-chunks.mjs).
  { name: "ui", entry: "src/ui/run.tsx" },
];

// Bundled CommonJS (ink's signal-exit and stack-utils) calls require() for Node's own modules,
// which an ES module does not have. esbuild's __require helper looks for `require` in the scope of
// its chunk, so each chunk that holds the helper gets one from createRequire (~0.05 ms, once),
// prepended on its first line so that its source map stays right.
const REQUIRE_SHIM =
  'import { createRequire as __wardenCreateRequire } from "node:module"; const require = __wardenCreateRequire(import.meta.url); ';
const USES_REQUIRE_HELPER = 'typeof require !== "undefined" ? require';

/**
 * V8 keeps a script's source as one-byte characters only when all of it is Latin-1: a single "→" in
 * a comment doubles the memory of the whole 1.2 MB headless file (~2 MB of RSS, measured). esbuild
 * escapes such characters in code but rollup writes comments as they are, so every non-ASCII
 * character becomes its \u escape, which means the same in a string, a regular expression, a
 * template, an identifier or a comment.
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Blanks the imports of Node's own modules that bind nothing (`import 'node:zlib';`). Rollup
 * writes them into a chunk that only re-exports code moved into a group (the Bash analysis's
 * `check` chunk re-exports the headless chunk) to keep the import order of the modules it moved,
 * but Node's modules do nothing a program sees when they load: each module that uses one imports
 * it by name. Kept, the first Bash call loaded zlib, https, dns, tty... (~8 ms) the session never
 * used. Spaces of the same length keep the source map.
 */
function withoutBareBuiltinImports(code) {
  return code.replace(/^import ["']node:[\w/]+["'];$/gm, (line) => " ".repeat(line.length));
}

/** Notes about esbuild's already-bundled output that say nothing about ours. */
const QUIET_WARNINGS = new Set(["CIRCULAR_DEPENDENCY", "SOURCEMAP_BROKEN", "UNUSED_EXTERNAL_IMPORT"]);

/** esbuild's output files keyed by the source entry point each was built for. */
function outputsByEntry(metafile) {
  const byEntry = new Map();
  for (const [output, info] of Object.entries(metafile.outputs)) {
    if (info.entryPoint && output.endsWith(".js")) byEntry.set(info.entryPoint, resolve(output));
  }
  return byEntry;
}

/**
 * esbuild's runtime helpers (__require, __commonJS, __export...) go to a chunk of their own, made of
 * no source file, and every entry chunk imports it for its side effects, used or not.
 */
function runtimeOutputs(metafile) {
  const runtime = new Set();
  for (const [output, info] of Object.entries(metafile.outputs)) {
    if (output.endsWith(".js") && !info.entryPoint && Object.keys(info.inputs).length === 0) runtime.add(resolve(output));
  }
  return runtime;
}

/**
 * Blanks the side-effect-only imports of esbuild's runtime chunk: the helpers only define functions,
 * and a file that calls one imports it by name, so a bare import only loads whatever group the
 * helpers were merged into. In cli.js it loaded the 1.6 MB headless chunk before the interactive
 * plain prompt could be drawn (1.4x the floor instead of ~1.0x). Each import becomes spaces of the
 * same length, so that the source map still holds.
 */
function withoutRuntimeImports(code, runtime, importer) {
  // esbuild writes them at the top level, on lines of their own or (minified) run together.
  return code.replace(/(?<=^|;)import\s*["'](\.[^"']+)["'];/gm, (line, specifier) =>
    runtime.has(resolve(importer, "..", specifier)) ? " ".repeat(line.length) : line,
  );
}

/** Loads esbuild's files with their source maps, so that rollup's maps still point at our TypeScript. */
function withEsbuildMaps(runtime) {
  return {
    name: "esbuild-source-maps",
    load(id) {
      const code = withoutRuntimeImports(readFileSync(id, "utf8"), runtime, id);
      const mapFile = `${id}.map`;
      return existsSync(mapFile) ? { code, map: JSON.parse(readFileSync(mapFile, "utf8")) } : { code };
    },
  };
}

/**
 * Rewrites `dir` (esbuild's output, built with `metafile: true`) in place. `entries` are its entry
 * files by output name (`{ cli: "dist/cli.js" }`).
 */
export async function mergeChunks(dir, entries, metafile) {
  const byEntry = outputsByEntry(metafile);
  const groupRoots = GROUPS.map((group) => {
    const root = byEntry.get(group.entry);
    if (!root) throw new Error(`merge-chunks: no output for ${group.entry}; was it renamed?`);
    return { ...group, root };
  });
  let assignment;
  const bundle = await rollup({
    input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, resolve(file)])),
    // Bare specifiers are the installed packages esbuild left external, and Node's own modules.
    external: (id) => !id.startsWith(".") && !id.startsWith("/"),
    treeshake: false,
    plugins: [withEsbuildMaps(runtimeOutputs(metafile))],
    onwarn(warning, warn) {
      if (QUIET_WARNINGS.has(warning.code)) return;
      warn(warning);
    },
  });
  const outDir = `${dir}.merged`;
  rmSync(outDir, { recursive: true, force: true });
  await bundle.write({
    dir: outDir,
    format: "es",
    sourcemap: true,
    entryFileNames: "[name].js",
    // A chunk made from one esbuild file is named after it: drop esbuild's hash (rollup adds its own).
    chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, "")}-[hash].js`,
    manualChunks(id, { getModuleInfo }) {
      if (!assignment) {
        assignment = new Map();
        for (const { name, root, withDynamicImports } of groupRoots) {
          const queue = [root];
          while (queue.length > 0) {
            const moduleId = queue.pop();
            if (assignment.has(moduleId)) continue;
            assignment.set(moduleId, name);
            const info = getModuleInfo(moduleId);
            const imports = [...(info?.importedIds ?? []), ...(withDynamicImports ? (info?.dynamicallyImportedIds ?? []) : [])];
            for (const imported of imports) {
              if (imported.startsWith("/")) queue.push(imported);
            }
          }
        }
      }
      return assignment.get(id);
    },
  });
  await bundle.close();
  for (const sub of [outDir, join(outDir, "chunks")]) {
    for (const name of readdirSync(sub)) {
      if (!name.endsWith(".js")) continue;
      const path = join(sub, name);
      const code = withoutBareBuiltinImports(asciiOnly(readFileSync(path, "utf8")));
      writeFileSync(path, code.includes(USES_REQUIRE_HELPER) ? REQUIRE_SHIM + code : code);
    }
  }
  // Keep what esbuild wrote beside the code (the declaration files) and swap in the merged code.
  for (const name of readdirSync(dir)) {
    if (name.endsWith(".js") || name.endsWith(".js.map") || name === "chunks") continue;
    renameSync(join(dir, name), join(outDir, name));
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(outDir, dir);
}
