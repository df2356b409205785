// Journey: the bug fix as a fleet job (docs/fleet.md): a real redis-server, the built CLI's worker
// with its default work folder, the job submitted as the README shows (rule list, then the
// prompt), the scripted capable model, and the patch from `fleet results` applied to the person's
// own checkout with `git apply`. What is checked: the job's state and results as a person reads
// them, and the person's repository after the patch.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, prepareFleetHome, startWorker, stopWorker, type TestWorker, warden } from "../fleet/harness.js";
import { redisServerBinary, startTestRedis, type TestRedis } from "../helpers/redis-server.js";
import { tempDir } from "../loop/helpers.js";
import { bugRepo, changedLines, sumSource, TEST_COMMAND, testsPass } from "./helpers/bug-repo.js";
import { bugFixTurns } from "./helpers/capable-model.js";

const binary = redisServerBinary();

describe.skipIf(!binary)("journey: the bug fixed by a fleet job", () => {
  let redis: TestRedis;
  let worker: TestWorker;
  const dir = tempDir("warden-journey-fleet-");
  const fleet = { home: join(dir, "home"), wardenHome: join(dir, "home", ".warden"), redisUrl: "" };

  beforeAll(async () => {
    redis = await startTestRedis(binary as string);
    fleet.redisUrl = redis.url;
  }, 60_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await redis?.stop();
  });

  it("submit, worker, results with the patch, git apply: the person's tests pass", async () => {
    const repo = bugRepo();
    prepareFleetHome(fleet, { repositories: [repo], modelFiles: [dir] });
    worker = startWorker(fleet, undefined);
    await worker.ready;
    const script = join(dir, "fix.jsonl");
    writeFileSync(
      script,
      `${bugFixTurns()
        .map((t) => JSON.stringify(t))
        .join("\n")}\n`,
    );

    const submitted = await warden(fleet, [
      "fleet",
      "submit",
      "--repo",
      repo,
      "--model",
      `replay:${script}`,
      "--allowed-tools",
      "Read",
      "Edit",
      `Bash(${TEST_COMMAND})`,
      "--max-turns",
      "30",
      "The sum test fails; fix it.",
    ]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.trim();
    // Following the job's log returns when the job ends (one process, no polling): the person
    // watches the session work, then reads its state.
    const followed = await warden(fleet, ["fleet", "logs", id, "--follow"]);
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stdout).toContain("Fixed: `sum` now adds, and the test passes.");
    const final = jsonLines((await warden(fleet, ["fleet", "status", id, "--json"])).stdout)[0] as
      | { state: string; refusedCalls?: number }
      | undefined;
    expect(final).toMatchObject({ state: "completed" });
    expect(final?.refusedCalls).toBeUndefined();

    const text = (await warden(fleet, ["fleet", "results", id])).stdout;
    expect(text).toContain(`== ${id} completed`);
    expect(text).toContain("Fixed: `sum` now adds, and the test passes.");
    expect(text).toContain("src/sum.js");
    const [result] = jsonLines((await warden(fleet, ["fleet", "results", id, "--json"])).stdout) as Array<{
      patch: string;
    }>;
    expect(result?.patch).toContain("+  return a + b;");

    // The job worked in its own clone: the person's checkout is as it was until they apply the patch.
    expect(sumSource(repo)).toContain("a - b");
    const patch = join(dir, "fix.patch");
    writeFileSync(patch, result?.patch ?? "");
    execFileSync("git", ["apply", patch], { cwd: repo });
    expect(changedLines(repo)).toEqual(["-  return a - b;", "+  return a + b;"]);
    expect(testsPass(repo)).toBe(true);
  }, 120_000);
});
