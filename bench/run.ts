// `npm run bench`: runs every bench/*.bench.ts module in turn and prints one table.
// A module default-exports an async function returning rows; each row is a measured figure with
// the target it is held to, if any. Figures are reported, never asserted: speed is not a test.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** e.g. "<= 140" */
  target?: string;
  note?: string;
}

export type BenchModule = { default: () => Promise<BenchRow[]> };

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

// Each module runs in a process of its own, so that one bench's warm caches (the bash grammar,
// compiled modules, a grown heap) do not flatter the next one's figures.
if (process.env.WARDEN_BENCH_CHILD) {
  await runModule(files[0]!);
} else {
  let failed = false;
  for (const file of files) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), file], {
      stdio: "inherit",
      env: { ...process.env, WARDEN_BENCH_CHILD: "1" },
    });
    if (child.status !== 0) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}

async function runModule(file: string): Promise<void> {
  process.stdout.write(`\n## ${file}\n`);
  try {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
    const rows = await mod.default();
    for (const row of rows) {
      const value = Number.isInteger(row.value) ? String(row.value) : row.value.toFixed(3);
      const target = row.target ? `  (target ${row.target})` : "";
      const note = row.note ? `  ${row.note}` : "";
      process.stdout.write(`${row.name.padEnd(58)} ${value.padStart(12)} ${row.unit}${target}${note}\n`);
    }
  } catch (error) {
    process.exitCode = 1;
    process.stdout.write(`  failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
}
