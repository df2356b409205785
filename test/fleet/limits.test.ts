// The fleet's bounds and lifecycle edges with a real redis-server and `warden fleet worker`
// processes of the built CLI: a job still waiting is cancelled and never runs; provider overload
// and rate limits (529, 429 from a model server on 127.0.0.1 speaking Anthropic's protocol) are
// retried with back-off until the job completes; the fleet-wide per-provider limit keeps sessions
// of one provider from overlapping; a finished job's keys expire. Only the model is scripted.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisServerBinary } from "../helpers/redis-server.js";
import {
  httpError,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import { type FleetEnv, jsonLines, startTestFleet, type TestFleet, warden } from "./harness.js";

const binary = redisServerBinary();

describe.skipIf(!binary)("fleet limits and lifecycle", () => {
  let tf: TestFleet;
  let model: ScriptedModelServer;
  let fleet: FleetEnv;
  let dir: string;
  const RETAIN = 3_600;

  const submit = (args: string[]) => tf.submit(args);
  const status = (id: string) => tf.status(id);
  const settled = (id: string) => tf.settled(id);
  const addWorker = (args: string[], env: Record<string, string> = {}) => tf.addWorker(args, { env });

  beforeAll(async () => {
    // Replayed scripts and the test repository live in `dir`; these jobs run whole shell scripts
    // (`--allowed-tools Bash`), which a worker allows only when its settings say so. A retried
    // job's back-off and a job's wait for its provider's slot are shortened: what is tested is
    // that they happen, not their length.
    tf = await startTestFleet(binary as string, {
      name: "fleet-limits",
      policy: (dir) => ({ repositories: [dir], modelFiles: [dir], jobRules: "any" }),
      env: {
        WARDEN_FLEET_RETAIN_SECONDS: String(RETAIN),
        WARDEN_FLEET_BACKOFF_MS: "100",
        WARDEN_FLEET_SLOT_RETRY_MS: "100",
      },
    });
    ({ fleet, dir } = tf);
    model = await startScriptedModelServer();
  }, 30_000);

  afterAll(async () => {
    await model?.close();
    await tf?.stop();
  });

  it("cancels a job that is still waiting: it leaves the queue and no worker ever runs it", async () => {
    const script = join(dir, "never.jsonl");
    writeFileSync(script, `${JSON.stringify({ content: [{ type: "text", text: "should not run" }] })}\n`);
    // No worker is running yet: the job waits.
    const id = await submit(["--model", `replay:${script}`, "wait for me"]);
    expect((await status(id)).state).toBe("waiting");
    const cancelled = await warden(fleet, ["fleet", "cancel", id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout.trim()).toBe(`${id}  cancelled`);
    const logs = jsonLines((await warden(fleet, ["fleet", "logs", id])).stdout);
    expect(logs.at(-1)).toEqual({ type: "fleet", event: "end", state: "cancelled" });
    // A worker that starts now takes the next job, not the cancelled one.
    await addWorker(["--concurrency", "1"], {
      ANTHROPIC_API_KEY: "test",
      ANTHROPIC_BASE_URL: model.anthropicBaseURL,
      WARDEN_MAX_RETRIES: "0",
    });
    const other = join(dir, "other.jsonl");
    writeFileSync(other, `${JSON.stringify({ content: [{ type: "text", text: "other done" }] })}\n`);
    const next = await submit(["--model", `replay:${other}`, "after the cancelled one"]);
    expect((await settled(next)).state).toBe("completed");
    expect(await status(id)).toMatchObject({ state: "cancelled", runs: 0 });
  }, 90_000);

  it("retries a session that ends on provider overload (529) or a rate limit (429) until it completes", async () => {
    model.enqueue(
      httpError(529, { message: "Overloaded" }),
      httpError(429, { message: "rate limited" }),
      reply().text("Done after the provider recovered."),
    );
    const id = await submit(["--model", "anthropic:claude-test", "survive the overload"]);
    const final = await settled(id);
    expect(final.state).toBe("completed");
    // One run per answer of the model server: two refused, the third answered.
    expect(final.runs).toBe(3);
    expect(model.requests).toHaveLength(3);
    const events = jsonLines((await warden(fleet, ["fleet", "logs", id])).stdout);
    expect(events.filter((e) => e.type === "fleet" && e.event === "overloaded")).toHaveLength(2);
    expect(events.some((e) => e.type === "fleet" && e.event === "end" && e.state === "completed")).toBe(true);
    const result = jsonLines((await warden(fleet, ["fleet", "results", id, "--json"])).stdout)[0] as {
      result: { result: string };
    };
    expect(result.result.result).toBe("Done after the provider recovered.");
    // The worker says the refused runs will be tried again, not that the job failed.
    const said = tf.workers.map((w) => w.stderr()).join("");
    expect(said).toContain(`job ${id} failed (attempt 1 of 5; it will be tried again)`);
    expect(said).not.toMatch(new RegExp(`job ${id} failed: `));
    // The finished job's keys expire after the retention.
    const ttl = await tf.client.ttl(`warden:fleet:job:${id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(RETAIN);
    expect(await tf.client.ttl(`warden:fleet:job:${id}:events`)).toBeGreaterThan(0);
    expect(await tf.client.ttl(`warden:fleet:job:${id}:transcript`)).toBeGreaterThan(0);
  }, 120_000);

  it("keeps the fleet-wide limit of one provider: sessions of it never overlap, across workers", async () => {
    await addWorker(["--concurrency", "2", "--provider-limit", "replay=1"]);
    await addWorker(["--concurrency", "2"]);
    const log = join(dir, "overlap.log");
    writeFileSync(log, "");
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const script = join(dir, `limited-${i}.jsonl`);
      const command = `echo start-${i} >> ${log}; sleep 0.5; echo end-${i} >> ${log}`;
      writeFileSync(
        script,
        `${[
          { content: [{ type: "tool_use", id: "b1", name: "Bash", input: { command } }] },
          { content: [{ type: "text", text: `limited ${i}` }] },
        ]
          .map((turn) => JSON.stringify(turn))
          .join("\n")}\n`,
      );
      ids.push(await submit(["--model", `replay:${script}`, "--allowed-tools", "Bash", `limited ${i}`]));
    }
    expect((await tf.settledAll(ids)).map((final) => final.state)).toEqual(ids.map(() => "completed"));
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(8);
    // One session at a time: every start is followed by its own end.
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i + 1], lines.join(" ")).toBe(lines[i]?.replace("start-", "end-"));
    }
  }, 180_000);
});
