// The fleet tied into the tool system: Agent with isolation "remote" runs its subagent as a fleet
// job and returns its result, RemoteTrigger creates and runs triggers, durable Cron tasks become
// repeatable jobs. A real redis-server, a `warden fleet worker` of the built CLI, and sessions of
// the built CLI; only the model is replayed.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedJobData } from "../../src/fleet/job-signature.js";
import { redisServerBinary } from "../helpers/redis-server.js";
import { type FleetEnv, jsonLines, startTestFleet, type TestFleet, waitFor, warden } from "./harness.js";

const binary = redisServerBinary();

function script(dir: string, name: string, turns: object[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return path;
}

const toolUse = (id: string, name: string, input: object) => ({ type: "tool_use", id, name, input });
const say = (text: string) => ({ content: [{ type: "text", text }] });

/** The tool_result blocks of a stream-json run, by tool_use id. */
function toolResults(stdout: string): Map<string, { content: unknown; is_error?: boolean }> {
  const results = new Map<string, { content: unknown; is_error?: boolean }>();
  for (const event of jsonLines(stdout)) {
    if (event.type !== "user") continue;
    const content = (event.message as { content?: Array<Record<string, unknown>> }).content ?? [];
    for (const block of content) {
      if (block.type === "tool_result") {
        results.set(String(block.tool_use_id), block as { content: unknown; is_error?: boolean });
      }
    }
  }
  return results;
}

const text = (content: unknown) =>
  typeof content === "string" ? content : JSON.stringify(content as Array<{ text?: string }>);

describe.skipIf(!binary)("the fleet from a session's tools", () => {
  let tf: TestFleet;
  let client: TestFleet["client"];
  let fleet: FleetEnv;
  let dir: string;
  let repo: string;

  const session = (cwd: string, model: string, args: string[], env: Record<string, string> = {}) =>
    warden(
      fleet,
      ["-p", "go", "--model", `replay:${model}`, "--output-format", "stream-json", "--verbose", "--cwd", cwd, ...args],
      { env },
    );
  const status = async (id: string) =>
    jsonLines((await warden(fleet, ["fleet", "status", id, "--json"])).stdout)[0] as { state: string; runs: number };

  beforeAll(async () => {
    // Replayed scripts and the test repository live in `dir`.
    tf = await startTestFleet(binary as string, { name: "fleet-remote" });
    ({ client, fleet, dir, repo } = tf);
    await tf.addWorker(["--concurrency", "2"], { workDir: join(dir, "worker") });
  }, 60_000);

  afterAll(async () => {
    await tf?.stop();
  });

  it('runs an Agent call with isolation "remote" as a fleet job and returns its result, patch and transcript', async () => {
    const path = script(dir, "remote-agent.jsonl", [
      {
        content: [
          toolUse("a1", "Agent", {
            description: "remote writer",
            prompt: "Write remote.txt",
            subagent_type: "general-purpose",
            isolation: "remote",
          }),
        ],
      },
      {
        agent: "remote writer",
        content: [toolUse("w1", "Write", { file_path: "{{cwd}}/remote.txt", content: "from remote\n" })],
      },
      { agent: "remote writer", content: [{ type: "text", text: "Wrote remote.txt on a worker." }] },
      say("Parent done."),
    ]);
    const cwd = join(dir, "parent");
    execFileSync("git", ["clone", "-q", repo, cwd]);
    const run = await session(cwd, path, ["--allowed-tools", "Write"]);
    expect(run.code, run.stderr).toBe(0);
    const result = toolResults(run.stdout).get("a1");
    expect(result, run.stdout).toBeDefined();
    expect(result?.is_error).toBeFalsy();
    const said = text(result?.content);
    expect(said).toContain("Wrote remote.txt on a worker.");
    const jobId = /Ran as fleet job (\S+)/.exec(said)?.[1];
    expect(jobId, said).toBeDefined();
    // It ran on the worker, in its clone: the parent's checkout is untouched, the patch came back.
    expect(existsSync(join(cwd, "remote.txt"))).toBe(false);
    const patchPath = /git apply (\S+\.patch)/.exec(said)?.[1] as string;
    expect(readFileSync(patchPath, "utf8")).toContain("+from remote");
    execFileSync("git", ["apply", patchPath], { cwd });
    expect(readFileSync(join(cwd, "remote.txt"), "utf8")).toBe("from remote\n");
    // The job's transcript is the subagent's sidechain beside the parent session's.
    const sidechain = join(patchPath.replace(/\.patch$/, ".jsonl"));
    const lines = readFileSync(sidechain, "utf8").trim().split("\n");
    expect(lines.some((l) => l.includes('"tool_use_id":"w1"'))).toBe(true);
    expect((await status(jobId as string)).state).toBe("completed");
    expect(jsonLines(run.stdout).at(-1)?.result).toBe("Parent done.");
  }, 120_000);

  it('refuses isolation "remote" clearly when no fleet is configured', async () => {
    const path = script(dir, "no-fleet.jsonl", [
      {
        content: [
          toolUse("a1", "Agent", { description: "remote", prompt: "x", subagent_type: "Explore", isolation: "remote" }),
        ],
      },
      say("ok"),
    ]);
    const run = await session(repo, path, [], { WARDEN_REDIS_URL: "" });
    expect(run.code, run.stderr).toBe(0);
    const result = toolResults(run.stdout).get("a1");
    expect(result?.is_error).toBe(true);
    expect(text(result?.content)).toMatch(/isolation "remote" needs a fleet.*WARDEN_REDIS_URL/);
  }, 60_000);

  it("creates, lists, updates and runs a trigger with RemoteTrigger; a scheduled trigger is a repeatable job", async () => {
    const job = script(dir, "trigger-job.jsonl", [
      { content: [toolUse("w1", "Write", { file_path: "{{cwd}}/triggered.txt", content: "triggered\n" })] },
      say("Trigger job done."),
    ]);
    const steps = [
      { content: [toolUse("s1", "ToolSearch", { query: "select:RemoteTrigger" })] },
      {
        content: [
          toolUse("c1", "RemoteTrigger", {
            action: "create",
            body: { name: "nightly", prompt: "write it", model: `replay:${job}`, allowedTools: ["Write"] },
          }),
        ],
      },
    ];
    const create = await session(repo, script(dir, "trigger-create.jsonl", [...steps, say("created")]), [
      "--allowed-tools",
      "RemoteTrigger",
    ]);
    expect(create.code, create.stderr).toBe(0);
    const created = text(toolResults(create.stdout).get("c1")?.content);
    const triggerId = /(trg_[0-9a-f]+)/.exec(created)?.[1] as string;
    expect(triggerId, created).toBeDefined();
    expect(created).toContain(`repo ${repo}`);

    const later = await session(
      repo,
      script(dir, "trigger-use.jsonl", [
        steps[0] as object,
        {
          content: [
            toolUse("u1", "RemoteTrigger", { action: "update", trigger_id: triggerId, body: { cron: "0 3 * * *" } }),
            toolUse("l1", "RemoteTrigger", { action: "list" }),
            toolUse("r1", "RemoteTrigger", { action: "run", trigger_id: triggerId }),
            toolUse("b1", "RemoteTrigger", { action: "update", trigger_id: triggerId, body: { cron: "every night" } }),
          ],
        },
        say("ran"),
      ]),
      ["--allowed-tools", "RemoteTrigger"],
    );
    expect(later.code, later.stderr).toBe(0);
    const results = toolResults(later.stdout);
    expect(text(results.get("u1")?.content)).toContain('"0 3 * * *"');
    expect(text(results.get("l1")?.content)).toContain(`${triggerId} "nightly"`);
    const jobId = /submitted fleet job (\S+)\./.exec(text(results.get("r1")?.content))?.[1] as string;
    expect(jobId).toBeDefined();
    expect(results.get("b1")?.is_error).toBe(true);
    expect(text(results.get("b1")?.content)).toMatch(/has 2 field/);
    // The schedule is BullMQ's: a job scheduler with the trigger's pattern and job.
    const queue = new Queue("warden-fleet", { connection: client });
    const scheduler = await queue.getJobScheduler(`trigger:${triggerId}`);
    expect(scheduler?.pattern).toBe("0 3 * * *");
    expect((scheduler?.template?.data as { prompt?: string } | undefined)?.prompt).toBe("write it");
    await queue.close();
    // The run's job finishes on the worker with the trigger's permissions.
    const final = await waitFor(
      "the trigger's job",
      async () => {
        const now = await status(jobId);
        return ["completed", "failed", "cancelled"].includes(now.state) ? now : undefined;
      },
      60_000,
    );
    expect(final.state).toBe("completed");
    const result = jsonLines((await warden(fleet, ["fleet", "results", jobId, "--json"])).stdout)[0] as {
      result: { result: string };
      patch: string;
    };
    expect(result.result.result).toBe("Trigger job done.");
    expect(result.patch).toContain("+triggered");
  }, 120_000);

  it("refuses a RemoteTrigger change the session may not make unasked (headless: denied)", async () => {
    const before = await client.hlen("warden:fleet:triggers");
    const run = await session(
      repo,
      script(dir, "trigger-denied.jsonl", [
        { content: [toolUse("s1", "ToolSearch", { query: "select:RemoteTrigger" })] },
        { content: [toolUse("c1", "RemoteTrigger", { action: "create", body: { name: "x", prompt: "y" } })] },
        say("no"),
      ]),
      [],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(toolResults(run.stdout).get("c1")?.is_error).toBe(true);
    expect(await client.hlen("warden:fleet:triggers")).toBe(before);
  }, 60_000);

  it("makes a durable CronCreate task a repeatable fleet job that outlives the session; a later session lists and deletes it", async () => {
    const load = { content: [toolUse("s1", "ToolSearch", { query: "select:CronCreate,CronList,CronDelete" })] };
    const create = await session(
      repo,
      script(dir, "cron-create.jsonl", [
        load,
        {
          content: [
            toolUse("c1", "CronCreate", { cron: "0 6 * * 1", prompt: "weekly check", durable: true, recurring: true }),
          ],
        },
        say("scheduled"),
      ]),
      ["--allowed-tools", "CronCreate", "Read", "--disallowed-tools", "Bash(rm:*)"],
    );
    expect(create.code, create.stderr).toBe(0);
    const created = text(toolResults(create.stdout).get("c1")?.content);
    expect(created).toMatch(/durable, a fleet job/);
    const taskId = /Scheduled: ([0-9a-f]+) /.exec(created)?.[1] as string;
    expect(taskId, created).toBeDefined();
    // Nothing in the project's file: the queue holds it, with the session's model, mode and rules.
    expect(existsSync(join(repo, ".warden", "scheduled_tasks.json"))).toBe(false);
    const queue = new Queue("warden-fleet", { connection: client });
    const scheduler = await queue.getJobScheduler(`cron:${taskId}`);
    expect(scheduler?.pattern).toBe("0 6 * * 1");
    const data = scheduler?.template?.data as Record<string, unknown> | undefined;
    expect(data).toMatchObject({ prompt: "weekly check", repo, permissionMode: "default" });
    expect(data?.allowedTools).toEqual(expect.arrayContaining(["CronCreate", "Read"]));
    expect(data?.disallowedTools).toEqual(["Bash(rm:*)"]);
    expect(String(data?.model)).toMatch(/^replay:/);

    // The session that made it has ended; another one sees it and deletes it.
    const later = await session(
      repo,
      script(dir, "cron-later.jsonl", [
        load,
        { content: [toolUse("l1", "CronList", {})] },
        { content: [toolUse("d1", "CronDelete", { id: taskId })] },
        { content: [toolUse("l2", "CronList", {})] },
        say("done"),
      ]),
      [],
    );
    expect(later.code, later.stderr).toBe(0);
    const results = toolResults(later.stdout);
    expect(text(results.get("l1")?.content)).toContain(`${taskId}  "0 6 * * 1"`);
    expect(results.get("d1")?.is_error).toBeFalsy();
    expect(text(results.get("l2")?.content)).not.toContain(taskId);
    expect(await queue.getJobScheduler(`cron:${taskId}`)).toBeUndefined();
    await queue.close();
  }, 120_000);

  it("runs the jobs a schedule adds like submitted ones: listed, run by a worker, with results", async () => {
    const path = script(dir, "scheduled.jsonl", [say("Scheduled job done.")]);
    const queue = new Queue("warden-fleet", { connection: client });
    await queue.upsertJobScheduler(
      "cron:test-every",
      { every: 300, limit: 1 },
      {
        name: "session",
        // Signed with the fleet's job key, as every job a worker runs must be.
        data: signedJobData(
          { prompt: "on schedule", model: `replay:${path}`, origin: "cron:test-every" },
          Buffer.from(readFileSync(join(fleet.home, "fleet.key"), "utf8").trim()),
        ),
      },
    );
    const jobId = await waitFor("the scheduled job to run", async () => {
      const listed = jsonLines((await warden(fleet, ["fleet", "status", "--json"])).stdout) as Array<{
        id: string;
        state: string;
        prompt: string;
      }>;
      return listed.find((job) => job.prompt === "on schedule" && job.state === "completed")?.id;
    });
    const result = jsonLines((await warden(fleet, ["fleet", "results", jobId, "--json"])).stdout)[0] as {
      result: { result: string };
    };
    expect(result.result.result).toBe("Scheduled job done.");
    await queue.removeJobScheduler("cron:test-every");
    await queue.close();
  }, 60_000);
});
