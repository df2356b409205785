// Issue 10's race: read-only shell commands ran one after another when they arrived before the
// bash grammar had loaded (a fast model, a busy machine), because Bash judged every command
// "writing" until then. The real CLI against the scripted model server, which answers at once
// with 8 `sleep 1 && cat FILE` calls, while the grammar is made to load slowly
// (WARDEN_TEST_GRAMMAR_LOAD_DELAY_MS). Overlap is seen from outside: the test counts the `sleep`
// processes running under it at the same time.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../cli/run-cli.js";
import { reply, type ScriptedModelServer, startScriptedModelServer } from "../../helpers/scripted-model-server.js";

const CALLS = 8;
const GRAMMAR_DELAY_MS = 1_500;

/** pid → [parent pid, command name] for every process we can see. */
function processTable(): Map<number, [number, string]> {
  const table = new Map<number, [number, string]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so cut at the last ')'.
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      table.set(Number(entry), [ppid, comm]);
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

/** How many `sleep` processes descend from this test process right now. */
function sleepsUnderUs(): number {
  const table = processTable();
  const descendsFromUs = (pid: number): boolean => {
    for (let current = table.get(pid)?.[0], hops = 0; current !== undefined && hops < 64; hops++) {
      if (current === process.pid) return true;
      current = table.get(current)?.[0];
    }
    return false;
  };
  let count = 0;
  for (const [pid, [, comm]] of table) if (comm === "sleep" && descendsFromUs(pid)) count++;
  return count;
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
    const calls = reply();
    for (const file of files) calls.tool("Bash", { command: `sleep 1 && cat ${file}`, description: "read a part" });
    server.enqueue(calls, reply().text("read them all"));

    let mostAtOnce = 0;
    const watcher = setInterval(() => {
      mostAtOnce = Math.max(mostAtOnce, sleepsUnderUs());
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
  }, 60_000);
});
