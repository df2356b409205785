// Edits to a few dependencies' files as the build bundles them, each one exact: the build fails if a
// file no longer reads as expected (a new version), rather than quietly pay again what an edit saved.
import { readFileSync } from "node:fs";

// ink's layout engine (yoga) carries its wasm as a base64 data: URL. Two changes to how it loads:
// - where a global `fetch` exists, yoga reads the URL through it: in Node that loaded undici on
//   the interactive UI's path to its first frame (~65 ms of CPU and ~8 MB at load 17, measured for
//   issue 39) to decode a string that yoga decodes itself (with atob) where there is no fetch.
//   Both of its "is there a fetch" tests answer no.
// - yoga's entry awaits the instantiation at its top level, and a module with a top-level await
//   cannot become a body that V8's code cache compiles (see cached-chunks.mjs): the UI's chunk was
//   compiled afresh at every start. Emscripten lets the embedder instantiate (`instantiateWasm`);
//   handed yoga's own byte reader, ours compiles and instantiates at once (its wasm is ~90 KB,
//   validated in about a millisecond; V8 compiles its functions lazily as before), so the runtime
//   starts before the call returns and the entry needs no await.
// The build fails if yoga's files no longer read as expected, rather than pay again.
const YOGA_LOADER = /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
const YOGA_ENTRY = /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
const INK_RECONCILER = /[\\/]ink[\\/]build[\\/]reconciler\.js$/;
const YOGA_EDITS = [
  { file: YOGA_LOADER, from: '"function"!=typeof fetch', to: "true", count: 2 },
  // Its bytes decoded by Node's base64 decoder rather than atob and a loop over the characters.
  {
    file: YOGA_LOADER,
    from: "var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c",
    to: 'var d=Buffer.from(a.slice(37),"base64")',
    count: 1,
  },
  // The embedder's hook gets the loader's own synchronous byte reader (`wa`) as a third argument.
  { file: YOGA_LOADER, from: "h.instantiateWasm(d,\na)", to: "h.instantiateWasm(d,a,wa)", count: 1 },
  {
    file: YOGA_ENTRY,
    from: "wrapAssembly(await loadYoga())",
    to: `wrapAssembly((() => {
  const yoga = {
    instantiateWasm(imports, receive, readBytes) {
      const instance = new WebAssembly.Instance(new WebAssembly.Module(readBytes()), imports);
      receive(instance);
      return instance.exports;
    },
  };
  loadYoga(yoga);
  if (!yoga.calledRun) throw new Error("yoga's runtime did not start synchronously");
  return yoga;
})())`,
    count: 1,
  },
  // ink's two top-level awaits serve only DEV=true (React's devtools, not installed here, and ink's
  // package.json, which is not beside the bundle): the devtools load in the background instead,
  // and the renderer's name is given.
  { file: INK_RECONCILER, from: "await import('./devtools.js');", to: "void import('./devtools.js').catch(() => undefined);", count: 1 },
  { file: INK_RECONCILER, from: "? await loadPackageJson()", to: '? { name: "ink", version: undefined }', count: 1 },
];
// ink measures text with string-width, which builds `/^\p{RGI_Emoji}$/v` when its module loads:
// V8 expands that set of ~3,600 emoji sequences at once (~16 ms, and ~5 ms more at its first test),
// in the UI's start, for a text that holds no emoji. Every RGI emoji holds an Extended_Pictographic
// character, a skin-tone modifier, a regional indicator, U+20E3 or U+FE0F (checked for each single
// code point; the sequences are built from those), so the set is built, and asked, only for a
// cluster that holds one. Only the top-level string-width (wrap-ansi keeps an older copy of its own).
const STRING_WIDTH = /[\\/]node_modules[\\/]string-width[\\/]index\.js$/;
/** The package's own copy at the top of node_modules, not one nested in another package. */
const topLevel = (path) => path.split(/[\\/]node_modules[\\/]/).length === 2;
export const STRING_WIDTH_EDITS = [
  {
    file: STRING_WIDTH,
    when: topLevel,
    from: "const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;",
    to: [
      "const maybeRgiEmoji = /[\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\p{Regional_Indicator}\\u20E3\\uFE0F]/u;",
      "let rgiEmojiSet;",
      'const rgiEmojiRegex = { test: (segment) => maybeRgiEmoji.test(segment) && (rgiEmojiSet ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(segment) };',
    ].join(" "),
    count: 1,
  },
];
export const DEPENDENCY_EDITS = [...YOGA_EDITS, ...STRING_WIDTH_EDITS];

/** `code` (the file at `path`) with the edits meant for it, or undefined when none is. */
export function editedDependency(path, code) {
  const edits = DEPENDENCY_EDITS.filter((edit) => edit.file.test(path) && (edit.when?.(path) ?? true));
  if (edits.length === 0) return undefined;
  let edited = code;
  for (const edit of edits) {
    const found = edited.split(edit.from).length - 1;
    if (found !== edit.count) throw new Error(`${path}: expected ${edit.count} of ${JSON.stringify(edit.from)}, found ${found}`);
    edited = edited.split(edit.from).join(edit.to);
  }
  return edited;
}

/** The esbuild plugin that applies them. */
export const dependencyEdits = {
  name: "dependency-edits",
  setup(b) {
    for (const filter of new Set(DEPENDENCY_EDITS.map((edit) => edit.file))) {
      b.onLoad({ filter }, (args) => {
        const code = editedDependency(args.path, readFileSync(args.path, "utf8"));
        return code === undefined ? undefined : { contents: code, loader: "js" };
      });
    }
  },
};
