// Bundles the CLI and the library with esbuild. Dependencies stay external (they are installed
// beside us); code splitting keeps rarely used parts (other providers, the bash grammar, MCP)
// out of the start-up path because they are reached only through dynamic import().
import { build } from "esbuild";
import { readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { splitCachedChunks } from "./cached-chunks.mjs";
import { dependencyEdits } from "./dependency-edits.mjs";
import { mergeChunks } from "./merge-chunks.mjs";
import { writeToolSchemas } from "./tool-schemas.mjs";
import { spawn } from "node:child_process";
import { resolve as resolvePath } from "node:path";

// Small pure-JS dependencies every session loads are bundled in: zod alone is ~100 ES modules, and
// resolving and loading them one by one was most of the start-up time. Everything else stays
// external (ripgrep, sharp and tree-sitter find files beside them).
// The provider SDKs are bundled too, into the chunks only their adapter's dynamic import() reaches:
// one file loads in about half the time of the SDK's hundreds of modules, and ~10 MB lighter. So is
// the MCP SDK: loaded as ~170 files (zod 3 and 4, zod-to-json-schema, ajv) it cost a session with
// one MCP server ~190 ms of CPU and 27 MB; bundled, ~65 ms and 15 MB.
// ink and react likewise, into the chunk only the interactive UI's import() reaches: the UI then
// loads in ~0.7 s instead of ~1.7-2.7 s on a busy machine (measured for issue 14).
const BUNDLED = new Set([
  "zod",
  "picomatch",
  "diff",
  "shell-quote",
  "ignore",
  "@anthropic-ai/sdk",
  "openai",
  "@secretlint/core",
  "@secretlint/secretlint-rule-preset-recommend",
  "@modelcontextprotocol/sdk",
  "ink",
  "react",
]);
const pkg = JSON.parse(readFileSync("package.json", "utf8"));

// Zod's namespace object re-exports every error-message locale (~360 KB of the ~750 KB zod bundle,
// all parsed at start-up). Warden only uses the English one, which zod installs by default, so
// `locales` is narrowed to `en` and the rest never reach the bundle.
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: "zod-locales-en", namespace: "zod-locales" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, () => ({
      contents: 'export { default as en } from "zod/v4/locales/en.js";',
      resolveDir: process.cwd(),
    }));
  },
};
// secretlint's core logs through the `debug` package, whose Node build require()s `tty` (not
// possible from an ES module bundle); it never logs unless DEBUG names it, so a silent stand-in.
const silentDebug = {
  name: "silent-debug",
  setup(b) {
    b.onResolve({ filter: /^debug$/ }, (args) =>
      /[\\/]@secretlint[\\/]/.test(args.importer) ? { path: "debug", namespace: "silent-debug" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "silent-debug" }, () => ({
      contents: "export default function debug() { const log = () => {}; log.enabled = false; return log; }",
    }));
  },
};
// The provider SDKs read Node's global `Headers` and `FormData` while they build every request, and
// the first touch of either loads undici (~25 ms of CPU and ~3 MB before a session's first request;
// see src/providers/sdk-headers.ts). Each SDK module that names them imports both from there
// instead, which shadows the globals in that module only. The import goes in front of the first
// line, so that the module's source map still holds.
// Likewise `globalThis.ReadableStream`, whose first read loads Node's web streams: the SDKs read it
// to ask whether a request body is a stream; src/providers/sdk-readable-stream.ts answers without
// loading them (and still builds a real one when asked to).
const SDK_MODULE = /[\\/]node_modules[\\/](@anthropic-ai[\\/]sdk|openai)[\\/].*\.mjs$/;
const SDK_GLOBALS = resolvePath("src/providers/sdk-headers.ts");
const SDK_READABLE_STREAM = resolvePath("src/providers/sdk-readable-stream.ts");
const GLOBAL_READABLE_STREAM = /\bglobalThis\.ReadableStream\b/g;
const providerSdkGlobals = {
  name: "provider-sdk-globals",
  setup(b) {
    b.onLoad({ filter: SDK_MODULE }, (args) => {
      let code = readFileSync(args.path, "utf8");
      const imports = [];
      if (/\b(Headers|FormData)\b/.test(code)) imports.push(`import { Headers, FormData } from ${JSON.stringify(SDK_GLOBALS)};`);
      if (code.includes("globalThis.ReadableStream")) {
        imports.push(`import { SdkReadableStream as __wardenReadableStream } from ${JSON.stringify(SDK_READABLE_STREAM)};`);
        code = code.replace(GLOBAL_READABLE_STREAM, "__wardenReadableStream");
      }
      if (imports.length === 0) return undefined;
      return { contents: `${imports.join(" ")} ${code}`, loader: "js" };
    });
  },
};
const external = Object.keys(pkg.dependencies ?? {})
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);
// ink loads React's devtools bridge only when DEV=true; it is not installed, so it stays outside.
external.push("react-devtools-core");

const withTypes = !process.argv.includes("--no-types");
// The sources as they are now are what this build is made of: a file saved while it runs is newer
// than the stamp written at the end, so the tests' global setup (test/setup/build.ts) builds again.
const startedAt = new Date();
rmSync("dist", { recursive: true, force: true });
// The declarations (tsc, ~17 s) are written while esbuild and the steps after it run (~13 s): tsc
// only reads the sources, and writes under dist/types, which nothing below touches.
const declarations = withTypes ? emitDeclarations() : Promise.resolve();
const result = await build({
  metafile: true,
  entryPoints: { cli: "src/cli/main.ts", index: "src/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  sourcemap: true,
  // Without indentation and comments the chunks are ~22% smaller (the headless body 1.71 -> 1.34
  // MB), and every start reads and decodes them whole before compiling from the code cache: on this
  // VM each MB read and turned into a string costs ~8 ms (fresh pages fault in slowly). Names stay
  // as written, so stack traces still read; the source maps point at the TypeScript.
  minifyWhitespace: true,
  chunkNames: "chunks/[name]-[hash]",
  plugins: [zodEnglishOnly, silentDebug, providerSdkGlobals, dependencyEdits],
  // React (bundled with ink) picks its development build unless NODE_ENV says production: that
  // build checks every render and made each keystroke's redraw several times slower (issue 14's
  // echo latency). A CLI is always production; the development branches also leave the bundle.
  define: { "process.env.NODE_ENV": '"production"' },

  logLevel: "warning",
});
// Fewer, larger files on the paths users take (see merge-chunks.mjs); it also gives each chunk that
// needs one its `require`.
await mergeChunks("dist", { cli: "dist/cli.js", index: "dist/index.js" }, result.metafile);
// The headless chunk's code compiled once and then taken from V8's code cache (see cached-chunks.mjs).
await splitCachedChunks("dist");
// The JSON Schemas of the tools' input schemas, computed here rather than in every session.
await writeToolSchemas("dist", external);
await declarations;
writeFileSync("dist/.build-stamp", "");

function emitDeclarations() {
  const tsc = spawn(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--emitDeclarationOnly"], {
    stdio: "inherit",
  });
  return new Promise((resolve, reject) => {
    tsc.on("error", reject);
    tsc.on("close", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`tsc --emitDeclarationOnly failed (${signal ?? `exit ${code}`})`)),
    );
  });
}
utimesSync("dist/.build-stamp", startedAt, startedAt);
