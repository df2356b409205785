// Runs many small scripts through real bash for the differential tests, each as `bash -c TEXT`.
// One bash starts a child bash per script: a spawn from the test runner (a large process, whose
// every fork is costly) took ~200 ms on a loaded machine, and 150 of them ran past the test's
// timeout; from a small bash the same 150 take well under a second.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BashRun {
  stdout: string;
  status: number;
}

/** What bash printed for each of `texts`, and its exit status, in order; run in `cwd`. */
export function runBashScripts(texts: readonly string[], cwd: string): BashRun[] {
  const folder = mkdtempSync(join(tmpdir(), "warden-bash-batch-"));
  for (const [index, text] of texts.entries()) writeFileSync(join(folder, `${index}.sh`), text);
  // After each script, a line no script prints: its number and exit status (then a NUL).
  const driver = [
    `for i in $(seq 0 ${texts.length - 1}); do`,
    // The text whole, trailing newlines too, read without starting a process.
    `  IFS= read -r -d '' text < "${folder}/$i.sh"`,
    `  bash --norc --noprofile -c "$text"`,
    `  printf '\\036END%s:%s\\0' "$i" "$?"`,
    "done",
  ].join("\n");
  const run = spawnSync("bash", ["--norc", "--noprofile", "-c", driver], {
    cwd,
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C.UTF-8" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const pieces = run.stdout.split(/\x1eEND\d+:(\d+)\0/);
  const runs: BashRun[] = [];
  for (let i = 0; i + 1 < pieces.length; i += 2)
    runs.push({ stdout: pieces[i] as string, status: Number(pieces[i + 1]) });
  if (runs.length !== texts.length)
    throw new Error(`bash ran ${runs.length} of ${texts.length} scripts: ${run.stderr}`);
  return runs;
}
