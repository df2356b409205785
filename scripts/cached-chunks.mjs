// Lets V8 skip compiling the headless session's code on every start after the first.
//
// Node 20 has no compile cache for ES modules (module.enableCompileCache() arrived in 22.1), and
// compiling the 1.4 MB headless chunk was the largest single cost before the first request (~35% of
// the CPU in a profile of the chunk's loading). vm.Script can take and give V8's code cache, but
// only for classic scripts. So the chunk is split in two at build time:
// - `<name>-<hash>.cjs`, the body: the same code as a function body (rollup turns the chunk into
//   CommonJS shape: imports of Node's own modules become require(), exports assignments to
//   `exports`, dynamic import() a call to `__wardenImport`, import.meta.url a parameter);
// - `<name>-<hash>.js`, a small ES module in the chunk's place with the same exports, which
//   compiles the body with the cached code when there is any (the LOADER below, written into the
//   shim) and re-exports what the body defined. Other chunks import the shim as before.
// A body may require only Node's own modules and other chunks (the shim imports those and hands
// their namespaces to the body's require); any other import fails the build rather than the run.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { rollup } from "rollup";

/**
 * The chunks whose code is cached: those every `warden -p` compiles, and the interactive UI's
 * (~1 MB: ink, react and our components, compiled before its first frame; issue 39).
 */
const CACHED = ["headless", "anthropic", "ui"];

/**
 * The chunks whose shim lets the event loop turn before compiling the body and again before running
 * it: the headless and UI chunks load while the interactive plain prompt echoes keys
 * (src/ui/early-input.ts), and a compile and run in one synchronous step held a key typed meanwhile
 * unechoed until the step was over (issue 39). A turn costs nothing measurable to `warden -p`.
 */
const STEPPED = ["headless", "ui"];

/**
 * Node's modules each body requires only when first used (see the loader's __wardenLazyModule):
 * those a session may not need before its first request.
 */
const LAZY_BUILTINS = ["node:child_process", "node:crypto", "node:dns/promises", "node:https", "node:zlib"];

/**
 * Rollup reads every export of a module imported as a namespace (import * as x) into a frozen
 * copy when the body starts, which would load a lazy module at once (the Anthropic SDK imports
 * node:child_process and node:crypto so): for those, the body uses the stand-in itself.
 */
function withLazyNamespaces(code) {
  const lazy = new Set();
  for (const [, name, id] of code.matchAll(/^var (\w+) = require\('([^']+)'\);$/gm)) {
    if (LAZY_BUILTINS.includes(id)) lazy.add(name);
  }
  return code.replace(/\/\*#__PURE__\*\/_interopNamespaceDefault\((\w+)\)/g, (call, name) => (lazy.has(name) ? name : call));
}

/** Each body is one function expression, called by the loader with these parameters. */
const BODY_HEAD = "(function (exports, require, module, __filename, __dirname, __wardenImport, __wardenMetaUrl) {";

/**
 * The shim's loader, written out in each shim (it must not be a file of its own: each ES module
 * file on the start-up path costs). It compiles the body with the cached code for this exact body,
 * Node and architecture, if there is one and V8 accepts it (V8 checks its own version, flags and
 * the source), and otherwise compiles it as usual and leaves the cache to be written when the
 * process exits, by then holding every function the session compiled (see __wardenCacheSaver). A
 * cache that cannot be read or written costs nothing but the saving. WARDEN_CODE_CACHE=0 turns it off. The cache lives in
 * the user's cache folder, created private (0700), like the rest of the user's own files.
 */
const LOADER = `import { createRequire as __wardenCreateRequire } from "node:module";
// Node's modules through require(): importing node:fs as an ES module builds its facade, which
// reads every export, ReadStream's lazy getter included (it loads the whole streams machinery).
const __wardenRequire = __wardenCreateRequire(import.meta.url);
const {
  mkdirSync: __wardenMkdir,
  readdirSync: __wardenList,
  readFileSync: __wardenRead,
  renameSync: __wardenRename,
  statSync: __wardenStat,
  unlinkSync: __wardenUnlink,
  writeFileSync: __wardenWrite,
} = __wardenRequire("node:fs");
const { homedir: __wardenHome } = __wardenRequire("node:os");
const { basename: __wardenBase, dirname: __wardenDir, join: __wardenJoin } = __wardenRequire("node:path");
const { fileURLToPath: __wardenPath } = __wardenRequire("node:url");
const { Script: __WardenScript } = __wardenRequire("node:vm");
function __wardenCacheDir() {
  const base = process.env.XDG_CACHE_HOME || __wardenJoin(__wardenHome(), ".cache");
  return __wardenJoin(base, "warden", "code-cache");
}
// Written whole under a temporary name, then renamed: a reader never sees half a file.
function __wardenWriteAtomic(file, data) {
  const partial = \`\${file}.\${process.pid}.tmp\`;
  __wardenWrite(partial, data, { mode: 0o600 });
  __wardenRename(partial, file);
}
// Each build's chunks have names of their own (their content's hash), so every upgrade or rebuild
// writes new caches: when a run writes one, only the newest few of that chunk's caches are kept (a
// few, not one: two installed versions used in turn each keep theirs).
const __wardenCachesKept = 3;
function __wardenPruneCaches(cacheFile) {
  const dir = __wardenDir(cacheFile);
  // No backslashes: this text is a template literal in the build script.
  const chunk = /^(.+)-[A-Za-z0-9_-]{8}[.]cjs-/.exec(__wardenBase(cacheFile))?.[1];
  if (chunk === undefined) return;
  const caches = [];
  for (const name of __wardenList(dir)) {
    if (!name.startsWith(\`\${chunk}-\`) || !name.endsWith(".bin") || /^(.+)-[A-Za-z0-9_-]{8}[.]cjs-/.exec(name)?.[1] !== chunk) continue;
    try {
      caches.push({ file: __wardenJoin(dir, name), at: __wardenStat(__wardenJoin(dir, name)).mtimeMs });
    } catch {}
  }
  caches.sort((a, b) => b.at - a.at);
  for (const { file } of caches.slice(__wardenCachesKept)) {
    if (file === cacheFile) continue;
    try {
      __wardenUnlink(file);
    } catch {}
  }
}
// Each cache file starts with 8 bytes naming what it holds (8, so that V8's data after it stays
// aligned and is not copied): "start-up", what a session compiles up to its first request, or
// "toolturn", that and the handling of a first turn of file tool calls up to its follow-up
// request. A file with neither is no cache.
const __wardenStartUp = "start-up";
const __wardenToolTurn = "toolturn";
// A run that had no cache it could take writes a start-up cache: when the session is about to
// change V8's flags (the bash grammar, src/shell/parse/baseline-wasm.ts, while the first request
// waits on the model), else at exit. V8 records its flags in each cache and refuses one written
// under other flags, so nothing is written while they differ from those every start has.
// A start-up cache is completed once, by the first run that takes it (or wrote it) and reaches the
// follow-up request of its first tool turn, if that turn called only file tools (src/cli/
// code-cache-marks.ts): V8 deserializes a whole cache at every start, so each path added to it
// costs every later start; the file tools' path, which every session needs soon (~10 ms of CPU
// before the follow-up without it), adds ~7%; Bash's would add ~17%. A tool-turn cache is never
// rewritten. Rewriting the cache with whatever each run compiled was tried before and taken back
// out (the Read and Bash paths made a one-turn session ~3% slower to its first request and
// ~0.9 MB larger).
function __wardenCacheWriter(script, cacheFile, taken) {
  let written = taken;
  const write = (kind) => {
    if (written === __wardenToolTurn || written === kind) return;
    if (globalThis.__wardenV8FlagsChanged === true) {
      // The grammar's compile is under way: written once V8's flags are back, if they come back.
      if (kind === __wardenToolTurn) {
        (globalThis.__wardenOnV8FlagsRestored ??= []).push(() => write(kind));
        if (process.env.WARDEN_TRACE_CODE_CACHE === "1") process.stderr.write(\`warden: code cache held back \${kind} \${cacheFile}\\n\`);
      }
      return;
    }
    written = kind;
    try {
      const data = Buffer.concat([Buffer.from(kind, "latin1"), script.createCachedData()]);
      __wardenMkdir(__wardenDir(cacheFile), { recursive: true, mode: 0o700 });
      __wardenWriteAtomic(cacheFile, data);
      if (process.env.WARDEN_TRACE_CODE_CACHE === "1") process.stderr.write(\`warden: code cache wrote \${kind} \${cacheFile}\\n\`);
      if (taken === undefined) __wardenPruneCaches(cacheFile);
    } catch {}
  };
  return write;
}
// Node's modules that a session may never use, or only after its first request (a spawn, a hash,
// an https connection, a compressed response, a DNS lookup): the body gets a stand-in that loads
// the module at the first use of one of its exports. Requiring them all up front cost ~10 ms of
// CPU before every first request (dgram and child_process, tls, zlib, dns). Their exports are
// plain functions and classes that do not depend on "this", so calling one through the stand-in
// is calling the module's own.
const __wardenLazyBuiltins = new Set(${JSON.stringify(LAZY_BUILTINS)});
function __wardenLazyModule(load) {
  let loaded;
  const real = () => (loaded ??= load());
  return new Proxy(Object.create(null), {
    // An ES namespace of the module (import * as x) has it as its default export too.
    get: (_, key) => (key === "default" && !("default" in real()) ? real() : real()[key]),
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own target is empty and extensible: a proxy may report any key configurable.
      if (descriptor) descriptor.configurable = true;
      return descriptor;
    },
  });
}
// Compiling a body (from the cache or not) and running it are two steps: a chunk that is loaded
// while a person may be typing (the UI's) lets the event loop turn between them (see STEPPED).
function __wardenCompileBody(bodyUrl) {
  const file = __wardenPath(bodyUrl);
  // The built files are ASCII-only, so latin1 is exact and the cheapest decoding.
  const source = __wardenRead(file, "latin1");
  const enabled = process.env.WARDEN_CODE_CACHE !== "0";
  const cacheFile = __wardenJoin(__wardenCacheDir(), \`\${__wardenBase(file)}-\${process.version}-\${process.arch}.bin\`);
  let cachedData;
  let kind;
  if (enabled) {
    try {
      const stored = __wardenRead(cacheFile);
      kind = stored.toString("latin1", 0, 8);
      // A file of an unknown kind (or too short to have one) is handed to V8 empty, which refuses it.
      cachedData = kind === __wardenStartUp || kind === __wardenToolTurn ? stored.subarray(8) : Buffer.alloc(0);
    } catch {}
  }
  const script = new __WardenScript(source, { filename: file, cachedData });
  const state = cachedData === undefined ? "miss" : script.cachedDataRejected ? "rejected" : "hit";
  if (process.env.WARDEN_TRACE_CODE_CACHE === "1") process.stderr.write(\`warden: code cache \${state} \${cacheFile} \${state === "hit" ? kind : "none"}\\n\`);
  if (enabled && !(state === "hit" && kind === __wardenToolTurn)) {
    const write = __wardenCacheWriter(script, cacheFile, state === "hit" ? kind : undefined);
    if (state !== "hit") {
      const writeStartUp = () => write(__wardenStartUp);
      (globalThis.__wardenSaveCodeCacheNow ??= []).push(writeStartUp);
      process.once("exit", writeStartUp);
    }
    (globalThis.__wardenCompleteCodeCache ??= []).push(() => write(__wardenToolTurn));
  }
  return { file, script };
}
function __wardenRunBody({ file, script }, metaUrl, dynamicImport, chunks) {
  const module = { exports: {} };
  const nodeRequire = __wardenCreateRequire(file);
  const require = (id) =>
    Object.hasOwn(chunks, id)
      ? chunks[id]
      : __wardenLazyBuiltins.has(id)
        ? __wardenLazyModule(() => nodeRequire(id))
        : nodeRequire(id);
  script.runInThisContext()(module.exports, require, module, file, __wardenDir(file), dynamicImport, metaUrl);
  return module.exports;
}`;

/** One turn of the event loop (the shim's top-level await): input read meanwhile is handled. */
const TURN = "await new Promise((resolve) => setImmediate(resolve));";

function chunkNamed(chunksDir, files, name) {
  const file = files.find((candidate) => candidate.startsWith(`${name}-`) && candidate.endsWith(".js"));
  if (!file) throw new Error(`cached-chunks: no chunk named ${name}-*.js in ${chunksDir}`);
  return join(chunksDir, file);
}

/** Rewrites the chunk at `path` into a body and a shim that loads it. */
async function splitChunk(chunkPath, stepped) {
  // Absolute, as rollup names its input: the load hook below matches it, so the chunk's own source
  // map (to the TypeScript) goes into the body's. With a relative path the hook never matched and
  // the body's map pointed only at the chunk as it was before the split, a file no longer there.
  const path = resolve(chunkPath);
  const chunkCode = readFileSync(path, "utf8");
  const mapFile = `${path}.map`;
  const bundle = await rollup({
    input: path,
    treeshake: false,
    plugins: [
      {
        name: "chunk-with-map",
        // Imports of other chunks stay written as they are ("./headless-x.js"), the key the shim
        // hands their namespaces over by.
        resolveId: (source, importer) =>
          importer !== undefined ? { id: source, external: source.startsWith(".") ? "absolute" : true } : null,
        load: (id) => (id === path ? { code: chunkCode, map: JSON.parse(readFileSync(mapFile, "utf8")) } : null),
        resolveImportMeta: (property) => (property === "url" ? "__wardenMetaUrl" : null),
        renderDynamicImport: () => ({ left: "__wardenImport(", right: ")" }),
      },
    ],
    onwarn(warning, warn) {
      if (warning.code !== "SOURCEMAP_BROKEN") warn(warning);
    },
  });
  const { output } = await bundle.generate({
    format: "cjs",
    exports: "named",
    // Node's modules come from require(): default imports take the module itself.
    interop: "default",
    sourcemap: true,
    // The map's sources relative to the body's folder, where the map is written.
    dir: dirname(path),
    strict: true,
    dynamicImportInCjs: true,
  });
  await bundle.close();
  const [chunk] = output;
  // Other chunks are ES modules, which a body cannot require(): the shim imports them and hands
  // their namespaces to the body's require. Anything else must be one of Node's own modules.
  const chunkImports = chunk.imports.filter((id) => id.startsWith("./"));
  const others = chunk.imports.filter((id) => !id.startsWith("./") && !isBuiltin(id));
  if (others.length > 0) {
    throw new Error(`cached-chunks: ${basename(path)} imports ${others.join(", ")}; a body can require only Node's modules and other chunks`);
  }
  const bodyName = basename(path).replace(/\.js$/, ".cjs");
  const bodyPath = join(path, "..", bodyName);
  // The function wrapper is written into the file, on the body's first line so that the source map
  // holds: the loader compiles the file's text as it is, without a second 1.4 MB string.
  const code = withLazyNamespaces(chunk.code.replace(/^\/\/# sourceMappingURL=.*$/m, ""));
  writeFileSync(bodyPath, `${BODY_HEAD}${code}\n})\n//# sourceMappingURL=${bodyName}.map\n`);
  writeFileSync(`${bodyPath}.map`, chunk.map.toString());
  const names = chunk.exports.filter((name) => name !== "__esModule");
  const shim = [
    "// The chunk's code is in the body beside it, compiled with V8's code cache (scripts/cached-chunks.mjs).",
    LOADER,
    ...chunkImports.map((id, index) => `import * as __dep${index} from ${JSON.stringify(id)};`),
    ...(stepped ? [TURN] : []),
    `const __compiled = __wardenCompileBody(new URL(${JSON.stringify(`./${bodyName}`)}, import.meta.url));`,
    ...(stepped ? [TURN] : []),
    "const __body = __wardenRunBody(__compiled, import.meta.url, (specifier) =>",
    '  import(specifier.startsWith(".") ? new URL(specifier, import.meta.url).href : specifier),',
    `  { ${chunkImports.map((id, index) => `${JSON.stringify(id)}: __dep${index}`).join(", ")} },`,
    ");",
    ...names.map((name, index) => `const __e${index} = __body[${JSON.stringify(name)}];`),
    `export { ${names.map((name, index) => `__e${index} as ${name}`).join(", ")} };`,
    "",
  ].join("\n");
  writeFileSync(path, shim);
  // The shim's own source map would be misleading; stack traces point into the body and its map.
  writeFileSync(mapFile, JSON.stringify({ version: 3, sources: [], names: [], mappings: "" }));
}

/** Splits each cached chunk under `dir/chunks`. */
export async function splitCachedChunks(dir) {
  const chunksDir = join(dir, "chunks");
  const files = readdirSync(chunksDir);
  for (const name of CACHED) await splitChunk(chunkNamed(chunksDir, files, name), STEPPED.includes(name));
}
