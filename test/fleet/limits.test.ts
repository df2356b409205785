// The fleet's bounds and lifecycle edges with a real redis-server and `warden fleet worker`
// processes of the built CLI: a job still waiting is cancelled and never runs; provider overload
// and rate limits (529, 429 from a model server on 127.0.0.1 speaking Anthropic's protocol) are
// retried with back-off until the job completes; the fleet-wide per-provider limit keeps sessions
// of one provider from overlapping; a finished job's keys expire. Only the model is scripted.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisServerBinary, startTestRedis, type TestRedis } from "../helpers/redis-server.js";
import {
  httpError,
  reply,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../helpers/scripted-model-server.js";
import {
  type FleetEnv,
  jsonLines,
  prepareFleetHome,
  startWorker,
  stopWorker,
  type TestWorker,
  waitFor,
  warden,
} from "./harness.js";

const binary = redisServerBinary();

describe.skipIf(!binary)("fleet limits and lifecycle", () => {
  let redis: TestRedis;
  let client: Redis;
  let model: ScriptedModelServer;
  let fleet: FleetEnv;
  let dir: string;
  const workers: TestWorker[] = [];
  const RETAIN = 3_600;

  const submit = async (args: string[]) => {
    const run = await warden(fleet, ["fleet", "submit", ...args], {
      env: { WARDEN_FLEET_RETAIN_SECONDS: String(RETAIN) },
    });
    expect(run.code, run.stderr).toBe(0);
    return run.stdout.trim();
  };
  const status = async (id: string) =>
    jsonLines((await warden(fleet, ["fleet", "status", id, "--json"])).stdout)[0] as {
      state: string;
      runs: number;
    };
  const settled = (id: string) =>
    waitFor(
      `job ${id} to end`,
      async () => {
        const now = await status(id);
        return ["completed", "failed", "cancelled"].includes(now.state) ? now : undefined;
      },
      120_000,
    );
  const addWorker = async (args: string[], env: Record<string, string> = {}) => {
    const worker = startWorker(fleet, join(dir, `worker-${workers.length + 1}`), args, {
      WARDEN_FLEET_RETAIN_SECONDS: String(RETAIN),
      ...env,
    });
    workers.push(worker);
    await worker.ready;
    return worker;
  };

  beforeAll(async () => {
    redis = await startTestRedis(binary as string);
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    model = await startScriptedModelServer();
    dir = mkdtempSync(join(tmpdir(), "warden-fleet-limits-"));
    fleet = { home: join(dir, "home"), redisUrl: redis.url };
    // Replayed scripts and the test repository live in `dir`; these jobs run whole shell scripts
    // (`--allowed-tools Bash`), which a worker allows only when its settings say so.
    prepareFleetHome(fleet, { repositories: [dir], modelFiles: [dir], jobRules: "any" });
  }, 30_000);

  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    client?.disconnect();
    await model?.close();
    await redis?.stop();
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
    // The finished job's keys expire after the retention.
    const ttl = await client.ttl(`warden:fleet:job:${id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(RETAIN);
    expect(await client.ttl(`warden:fleet:job:${id}:events`)).toBeGreaterThan(0);
    expect(await client.ttl(`warden:fleet:job:${id}:transcript`)).toBeGreaterThan(0);
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
    for (const id of ids) expect((await settled(id)).state).toBe("completed");
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(8);
    // One session at a time: every start is followed by its own end.
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i + 1], lines.join(" ")).toBe(lines[i]?.replace("start-", "end-"));
    }
  }, 180_000);
});
