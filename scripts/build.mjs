// Bundles the CLI and the library with esbuild. Dependencies stay external (they are installed
// beside us); code splitting keeps rarely used parts (other providers, the bash grammar, MCP)
// out of the start-up path because they are reached only through dynamic import().
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { execFileSync } from "node:child_process";

const withTypes = !process.argv.includes("--no-types");
rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { cli: "src/cli/main.ts", index: "src/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});
if (withTypes) {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--emitDeclarationOnly"], { stdio: "inherit" });
}
