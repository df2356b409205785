// A copy of test/fixtures/lsp-project in a temp folder (tests edit it), and the language-server
// processes working in a folder, read from the process table (/proc/PID/cwd).
import { cpSync, mkdtempSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const fixture = fileURLToPath(new URL("../../fixtures/lsp-project", import.meta.url));

export function copyLspProject(prefix = "warden-lsp-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

/** Pids of processes whose working directory is `dir` (the servers and their tsserver children). */
export function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dir) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}
