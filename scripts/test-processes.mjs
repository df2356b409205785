// The process tiers side by side: `vitest run --project integration` (its files in parallel) and
// `vitest run --project heavy` (one file at a time) as two runs at once, so that one heavy suite
// runs beside the integration files instead of after them with a core idle. Vitest itself cannot
// do this in one run: projects of one group must share one worker count, and a heavy group of its
// own runs alone. Each line is prefixed with its tier; the exit code is the worse of the two.
// Arguments are passed to both runs (a file filter selects within each tier; a tier it leaves
// empty passes).
// Both runs' global setups build dist/ and the fixtures; test/setup/build.ts locks, so one builds
// and the other finds the build current.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const args = process.argv.slice(2);

function run(project) {
  const child = spawn(process.execPath, [vitest, "run", "--project", project, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    // Colour in a terminal (the runs' output is piped through here); otherwise the environment as
    // given: the tests' own processes must not be told FORCE_COLOR=0 by the runner.
    env: process.stdout.isTTY && process.env.FORCE_COLOR === undefined ? { ...process.env, FORCE_COLOR: "1" } : process.env,
  });
  const label = `${project.padEnd(11)}│ `;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
      out.write(`${label}${line}\n`);
    });
  }
  return new Promise((resolve) => {
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// Stopping the whole run (Ctrl-C) stops both: they share the terminal's process group.
const codes = await Promise.all([run("heavy"), run("integration")]);
process.exitCode = Math.max(...codes);
