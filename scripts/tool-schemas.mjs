// Writes dist/tool-input-schemas.json: the JSON Schema of every built-in tool input schema declared
// with prebuiltInputSchema() (src/tool/schema.ts), converted once here by the same code the
// session would run, so that a session sends them without building the zod objects or converting
// them (issue 39). The sources are bundled into a throwaway module (every tool module imported
// through the registry, so that each registers its schema), run, and removed.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const ENTRY = `
import { convertPrebuiltInputSchemas } from ${JSON.stringify(resolve("src/tool/schema.ts"))};
import ${JSON.stringify(resolve("src/tools/registry.ts"))};
process.stdout.write(JSON.stringify(convertPrebuiltInputSchemas()));
`;

/** Writes the table into `dir`; `external` are the packages the main build leaves outside. */
export async function writeToolSchemas(dir, external) {
  const outfile = join(dir, ".tool-schemas-generator.mjs");
  try {
    await build({
      stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: "ts" },
      outfile,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      external,
      banner: { js: 'import { createRequire as __toolSchemasRequire } from "node:module"; const require = __toolSchemasRequire(import.meta.url);' },
      logLevel: "warning",
    });
    const table = JSON.parse(execFileSync(process.execPath, [outfile], { encoding: "utf8" }));
    if (Object.keys(table).length === 0) throw new Error("tool-schemas: no prebuilt input schema was registered");
    writeFileSync(join(dir, "tool-input-schemas.json"), JSON.stringify(table));
  } finally {
    rmSync(outfile, { force: true });
  }
}
