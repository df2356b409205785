// A job whose repository cannot be cloned: a real redis-server, the built CLI's worker, jobs
// replayed by the replay provider. A repository that can never be cloned (a folder that is not
// there) fails at once with git's reason, not after five attempts; one that may answer later (a
// refused connection, a host name that does not resolve now) is still tried again.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisServerBinary } from "../helpers/redis-server.js";
import { startTestFleet, type TestFleet, waitFor } from "./harness.js";

const binary = redisServerBinary();

describe.skipIf(!binary)("fleet jobs whose repository cannot be cloned", () => {
  let tf: TestFleet;
  let script: string;

  beforeAll(async () => {
    tf = await startTestFleet(binary as string, {
      name: "fleet-clone-failure",
      // Short retry delays, so a retried job's second run comes soon.
      env: { WARDEN_FLEET_BACKOFF_MS: "100" },
    });
    script = tf.script("answer.jsonl", [{ content: [{ type: "text", text: "done" }] }]);
    await tf.addWorker();
  }, 60_000);

  afterAll(async () => {
    await tf?.stop();
  });

  it("fails a job whose repository folder does not exist on its first run, saying why", async () => {
    // As a file:// URL, which goes to the worker as written (a plain path is checked at submit,
    // but on the worker's disk it may still be missing).
    const missing = `file://${join(tf.dir, "no-such-repo")}`;
    const id = await tf.submit(["--repo", missing, "--model", `replay:${script}`, "go"]);
    const final = await tf.settled(id);
    expect(final.state).toBe("failed");
    expect(final.runs).toBe(1);
    expect(final.error).toContain(`cannot clone ${missing}`);
    expect(final.error).toContain("does not appear to be a git repository");
  }, 120_000);

  it("tries again a job whose repository's host does not resolve (git says the same when DNS is down a moment)", async () => {
    const id = await tf.submit([
      "--repo",
      "https://no-such-host.invalid/team/repo.git",
      "--model",
      `replay:${script}`,
      "go",
    ]);
    const retried = await waitFor(`job ${id} to run twice`, async () => {
      const now = await tf.status(id);
      return now.runs >= 2 ? now : undefined;
    });
    expect(retried.runs).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("tries again a job whose repository's server refused the connection", async () => {
    const id = await tf.submit(["--repo", "http://127.0.0.1:1/team/repo.git", "--model", `replay:${script}`, "go"]);
    const retried = await waitFor(`job ${id} to run twice`, async () => {
      const now = await tf.status(id);
      return now.runs >= 2 ? now : undefined;
    });
    expect(retried.runs).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
