// Issue 10's race: read-only shell commands ran one after another when they arrived before the
// bash grammar had loaded (a fast model, a busy machine), because Bash judged every command
// "writing" until then. The real CLI against the scripted model server, which answers at once
// with 8 read-only calls that each wait for a GO file and then cat their part, while the grammar
// is made to load slowly (WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS). Overlap is seen from outside: the
// test counts the calls' shells running under it at the same time, and creates GO only once all
// eight run (or after a long wait, when they never do), so a slow machine cannot hide an overlap.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../cli/run-cli.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../../helpers/scripted-model-server.js";

const CALLS = 8;
const GRAMMAR_DELAY_MS = 1_500;

const WAIT_FOR_ALL_MS = 20_000;

/** pid → [parent pid, command line] for every process we can see. */
function processTable(): Map<number, [number, string]> {
  const table = new Map<number, [number, string]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so cut at the last ')'.
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      table.set(Number(entry), [ppid, readFileSync(`/proc/${entry}/cmdline`, "utf8")]);
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

/** How many of the parts are being read by processes under this test process right now. */
function partsBeingRead(): number {
  const table = processTable();
  const descendsFromUs = (pid: number): boolean => {
    for (let current = table.get(pid)?.[0], hops = 0; current !== undefined && hops < 64; hops++) {
      if (current === process.pid) return true;
      current = table.get(current)?.[0];
    }
    return false;
  };
  const parts = new Set<string>();
  for (const [pid, [, commandLine]] of table) {
    const part = /part-(\d+)\.txt/.exec(commandLine)?.[1];
    if (part !== undefined && descendsFromUs(pid)) parts.add(part);
  }
  return parts.size;
}

let server: ScriptedModelServer;
let dir: string;
beforeEach(async () => {
  server = await startScriptedModelServer();
  dir = await realpath(await mkdtemp(join(tmpdir(), "warden-slow-grammar-")));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("read-only Bash calls that arrive before the grammar has loaded", () => {
  it("still run together: the executor waits for the analysis instead of judging them writing", async () => {
    const files: string[] = [];
    for (let i = 0; i < CALLS; i++) {
      const file = join(dir, `part-${i}.txt`);
      await writeFile(file, `contents of part ${i}\n`);
      files.push(file);
    }
    const go = join(dir, "GO");
    const calls = reply();
    for (const file of files) {
      calls.tool("Bash", {
        command: `until [ -e ${go} ]; do sleep 0.1; done; cat ${file}`,
        description: "read a part",
      });
    }
    server.enqueue(calls, reply().text("read them all"));

    let mostAtOnce = 0;
    let firstSeen: number | undefined;
    const watcher = setInterval(() => {
      mostAtOnce = Math.max(mostAtOnce, partsBeingRead());
      if (mostAtOnce > 0) firstSeen ??= Date.now();
      // Release them all once all run together; one after another they never would, so the
      // first is released after a long wait and the rest follow it, one at a time.
      const waitedLong = firstSeen !== undefined && Date.now() - firstSeen > WAIT_FOR_ALL_MS;
      if (mostAtOnce === CALLS || waitedLong) void writeFile(go, "");
    }, 25);
    const run = await runCli(["-p", "read the parts", "--model", "anthropic:claude-test"], {
      home: join(dir, "home"),
      processCwd: dir,
      env: {
        ANTHROPIC_API_KEY: "test",
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
        WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS: String(GRAMMAR_DELAY_MS),
      },
    }).finally(() => clearInterval(watcher));

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("read them all");
    // Every call ran and read its file (none refused, none cancelled).
    const followUp = server.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    const results = (followUp.messages.at(-1)?.content ?? []) as Array<{ content: unknown; is_error?: boolean }>;
    expect(results).toHaveLength(CALLS);
    results.forEach((result, i) => {
      expect(result.is_error).toBeUndefined();
      expect(JSON.stringify(result.content)).toContain(`contents of part ${i}`);
    });
    // All eight commands were running at one moment.
    expect(mostAtOnce).toBe(CALLS);
  }, 120_000);
});
