// The fleet end to end: a real redis-server, three `warden fleet worker` processes of the built
// CLI, jobs replayed by the replay provider. Only the model is scripted.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transcriptPath } from "../../src/config/paths.js";
import { textOf } from "../../src/messages/types.js";
import { loadTranscriptFile } from "../../src/session/transcript-reader.js";
import { redisServerBinary } from "../helpers/redis-server.js";
import {
  type FleetEnv,
  findInClones,
  isAlive,
  jsonLines,
  startTestFleet,
  stopWorker,
  type TestFleet,
  type TestWorker,
  waitFor,
  warden,
} from "./harness.js";

const binary = redisServerBinary();
if (!binary) {
  console.warn("test/fleet: redis-server is not installed (apt-get install redis-server); the fleet tests are skipped");
}

function script(dir: string, name: string, turns: object[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return path;
}

const bash = (id: string, command: string) => ({
  content: [{ type: "tool_use", id, name: "Bash", input: { command } }],
});
const say = (text: string) => ({ content: [{ type: "text", text }] });

describe.skipIf(!binary)("warden fleet on BullMQ and a real Redis", () => {
  let tf: TestFleet;
  let fleet: FleetEnv;
  let dir: string;
  let repo: string;
  let client: TestFleet["client"];
  const workDirs = () => tf.workers.map((w) => w.workDir);
  const addWorker = () => tf.addWorker(["--concurrency", "2"]);
  const status = (id: string) => tf.status(id);
  const settled = (id: string) => tf.settled(id);
  const submitOne = (args: string[]) => tf.submit(args);

  beforeAll(async () => {
    // Replayed scripts and the test repository live in `dir`; these jobs run whole shell scripts
    // (`--allowed-tools Bash`), which a worker allows only when its settings say so.
    tf = await startTestFleet(binary as string, {
      name: "fleet",
      policy: (dir) => ({ repositories: [dir], modelFiles: [dir], jobRules: "any" }),
    });
    ({ fleet, dir, repo, client } = tf);
    await Promise.all([addWorker(), addWorker(), addWorker()]);
  }, 60_000);

  afterAll(async () => {
    await tf?.stop();
  });

  it("runs 30 replayed jobs from an NDJSON file on three workers, each once, to completion", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => {
      const path = script(dir, `many-${i}.jsonl`, [
        {
          content: [
            {
              type: "tool_use",
              id: "w1",
              name: "Write",
              input: { file_path: `{{cwd}}/answer-${i}.txt`, content: `job ${i}\n` },
            },
          ],
        },
        say(`job ${i} done`),
      ]);
      return JSON.stringify({ prompt: `job ${i}`, model: `replay:${path}`, repo, allowedTools: ["Write"] });
    });
    const file = join(dir, "jobs.ndjson");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const submitted = await warden(fleet, ["fleet", "submit", file]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const ids = submitted.stdout.trim().split("\n");
    expect(ids).toHaveLength(30);
    const finals = await tf.settledAll(ids);
    expect(
      finals.map((s) => s.state),
      `${JSON.stringify(finals)}\n${tf.workers.map((w) => w.stderr()).join("")}`,
    ).toEqual(Array(30).fill("completed"));
    expect(finals.every((s) => s.runs === 1)).toBe(true);
    const results = await warden(fleet, ["fleet", "results", ...ids, "--json"]);
    const parsed = jsonLines(results.stdout) as Array<{ id: string; result: { result: string }; patch: string }>;
    parsed.forEach((job, i) => {
      expect(job.result.result).toBe(`job ${i} done`);
      // The diff it made, against the repository it was given.
      expect(job.patch).toContain(`+++ b/answer-${i}.txt`);
      expect(job.patch).toContain(`+job ${i}`);
    });
    // --patch prints that diff alone, as git apply takes it.
    const patch = await warden(fleet, ["fleet", "results", ids[0] as string, "--patch"]);
    expect(patch.stdout).toBe(parsed[0]?.patch);
    // Cancelling a finished job stops nothing, and says why, not only with the exit code.
    const late = await warden(fleet, ["fleet", "cancel", ids[0] as string]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`job ${ids[0]} had ended (completed) before it could be cancelled`);
    // The work was spread: more than one worker ran jobs.
    expect(new Set(finals.map((s) => s.worker)).size).toBeGreaterThan(1);
  }, 240_000);

  it("moves a job whose worker is killed with SIGKILL to another worker, resumed from the right turn", async () => {
    const path = script(dir, "takeover.jsonl", [
      bash("t1", "echo step1 >> steps.txt"),
      bash("t2", "echo $$ > slow.pid; sleep 60; echo late >> steps.txt"),
      say("Finished after the takeover."),
    ]);
    const id = await submitOne(["--model", `replay:${path}`, "--repo", repo, "--allowed-tools", "Bash", "slow job"]);
    const pidFile = await waitFor("the slow command to start", () => findInClones(workDirs(), id, "slow.pid"));
    const slowPid = Number(readFileSync(pidFile, "utf8").trim());
    const running = await status(id);
    const victim = tf.workers.find((w) => running.worker?.includes(`-${w.process.pid}-`));
    expect(victim, `worker ${running.worker}`).toBeDefined();
    await stopWorker(victim as TestWorker);
    // The session and its command died with the worker: nothing of the job runs on.
    await waitFor("the killed worker's command to end", () => !isAlive(slowPid) || undefined, 20_000);
    await addWorker();
    const final = await settled(id);
    expect(final.state).toBe("completed");
    expect(final.runs).toBe(2);
    expect(final.worker).not.toBe(running.worker);
    const result = jsonLines((await warden(fleet, ["fleet", "results", id, "--json"])).stdout)[0] as {
      result: { result: string; num_turns: number };
      patch: string;
    };
    expect(result.result.result).toBe("Finished after the takeover.");
    // The first command's effect came over with the workspace and did not run again; the second
    // never finished anywhere.
    expect(result.patch.match(/^\+step1$/gm)).toHaveLength(1);
    expect(result.patch).not.toContain("late");
    // The transcript kept in Redis records the cut-off call as interrupted, naming its command.
    const transcript = (await client.lrange(`warden:fleet:job:${id}:transcript`, 0, -1)).map((l) => JSON.parse(l));
    const results = transcript
      .filter((e) => e.message?.role === "user")
      .flatMap((e) => e.message.content)
      .filter((b: { type: string }) => b.type === "tool_result");
    expect(results.filter((b: { tool_use_id: string }) => b.tool_use_id === "t1")).toHaveLength(1);
    expect(transcript.some((e) => e.type === "resume")).toBe(true);
    // Read back as a local --resume reads it: the cut-off call has its "interrupted" result, naming
    // the command, right after the call.
    const file = join(dir, "takeover-transcript.jsonl");
    writeFileSync(file, `${transcript.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const loaded = loadTranscriptFile(file);
    const t2 = loaded.messages
      .flatMap((m) => (m.role === "user" ? m.content : []))
      .find((b) => b.type === "tool_result" && b.tool_use_id === "t2");
    expect(t2).toBeDefined();
    expect(JSON.stringify(t2)).toMatch(/may have run partly or completely/);
    expect(JSON.stringify(t2)).toContain("sleep 60");
    expect(loaded.messages.filter((m) => m.role === "assistant").map((m) => textOf(m))).toContain(
      "Finished after the takeover.",
    );
  }, 180_000);

  it("carries on when Redis restarts during a run, and a command says clearly when Redis is away", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const path = script(dir, `restart-${i}.jsonl`, [
        { ...bash("t1", `echo ${i} > r.txt`), delay_ms: 2000 },
        { ...say(`restart job ${i}`), delay_ms: 2000 },
      ]);
      ids.push(await submitOne(["--model", `replay:${path}`, "--allowed-tools", "Bash", `restart ${i}`]));
    }
    // Redis goes away while sessions run (a session's pid is recorded once it started).
    await waitFor("a job to start", async () => (await client.hget(`warden:fleet:job:${ids[0]}`, "pid")) ?? undefined);
    await tf.redis.stop();
    const away = await warden(fleet, ["fleet", "status"], { env: { WARDEN_FLEET_REDIS_TIMEOUT_MS: "1000" } });
    expect(away.code).toBe(1);
    expect(away.stderr).toContain(`cannot reach Redis at ${tf.redis.url}`);
    await tf.redis.start();
    expect((await tf.settledAll(ids)).map((final) => final.state)).toEqual(ids.map(() => "completed"));
    const results = jsonLines((await warden(fleet, ["fleet", "results", ...ids, "--json"])).stdout) as Array<{
      result: { result: string };
    }>;
    expect(results.map((r) => r.result.result)).toEqual(ids.map((_, i) => `restart job ${i}`));
    // The workers said what happened and that they carried on.
    const said = tf.workers.map((w) => w.stderr()).join("");
    expect(said).toMatch(/is unreachable/);
    expect(said).toMatch(/is back; carrying on/);
  }, 180_000);

  it("cancels a running job: its session and command end, its state is cancelled, its changes so far are kept", async () => {
    const path = script(dir, "cancel.jsonl", [
      bash("t0", "echo kept before the cancel > kept.txt"),
      bash("t1", "echo $$ > cancel.pid; sleep 120"),
      say("never"),
    ]);
    const id = await submitOne(["--model", `replay:${path}`, "--allowed-tools", "Bash", "cancel me"]);
    const pidFile = await waitFor("the command to start", () => findInClones(workDirs(), id, "cancel.pid"));
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(isAlive(pid)).toBe(true);
    const cancelled = await warden(fleet, ["fleet", "cancel", id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout.trim()).toBe(`${id}  cancelled`);
    await waitFor("the cancelled command to end", () => !isAlive(pid) || undefined, 10_000);
    expect((await status(id)).state).toBe("cancelled");
    const logs = jsonLines((await warden(fleet, ["fleet", "logs", id, "--follow"])).stdout);
    expect(logs.at(-1)).toEqual({ type: "fleet", event: "end", state: "cancelled" });
    // What the session had changed is in its results, as a finished job's changes are.
    const [results] = jsonLines((await warden(fleet, ["fleet", "results", id, "--json"])).stdout) as Array<{
      state: string;
      patch?: string;
    }>;
    expect(results?.state).toBe("cancelled");
    expect(results?.patch).toContain("+kept before the cancel");
    expect((await warden(fleet, ["fleet", "results", id])).stdout).toContain("kept.txt");
    // The worker's own log says what happened to it: cancelled, not failed.
    const said = await waitFor(
      "the worker to report the cancel",
      () => tf.workers.some((w) => w.stderr().includes(`job ${id} cancelled`)) || undefined,
    );
    expect(said).toBe(true);
    expect(tf.workers.map((w) => w.stderr()).join("")).not.toContain(`job ${id} failed`);
  }, 120_000);

  it("gives a job a transcript of the same structure as a local session of the same script", async () => {
    const turns = [
      bash("t1", "echo same > same.txt"),
      {
        content: [
          { type: "text", text: "ok" },
          { type: "tool_use", id: "t2", name: "Read", input: { file_path: "{{cwd}}/same.txt" } },
        ],
      },
      say("Same."),
    ];
    const path = script(dir, "same.jsonl", turns);
    const id = await submitOne(["--model", `replay:${path}`, "--repo", repo, "--allowed-tools", "Bash", "same"]);
    expect((await settled(id)).state).toBe("completed");
    const remote = (await client.lrange(`warden:fleet:job:${id}:transcript`, 0, -1)).map((l) => JSON.parse(l));
    const localCwd = join(dir, "local");
    execFileSync("git", ["clone", "-q", repo, localCwd]);
    const local = await warden(fleet, [
      "-p",
      "same",
      "--model",
      `replay:${path}`,
      "--allowed-tools",
      "Bash",
      "--output-format",
      "stream-json",
      "--cwd",
      localCwd,
    ]);
    expect(local.code, local.stderr).toBe(0);
    const sessionId = jsonLines(local.stdout)[0]?.session_id as string;
    const prev = process.env.WARDEN_HOME;
    process.env.WARDEN_HOME = fleet.home;
    const localPath = transcriptPath(localCwd, sessionId);
    if (prev === undefined) delete process.env.WARDEN_HOME;
    else process.env.WARDEN_HOME = prev;
    const localLines = readFileSync(localPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(remote.map(shape)).toEqual(localLines.map(shape));
    expect(remote.length).toBeGreaterThan(4);
  }, 120_000);

  it("gives a job's session every option the job carries, through its session spec (the tools it is offered)", async () => {
    const path = script(dir, "tools.jsonl", [bash("t1", "echo ran > ran.txt"), say("Only the tools it was offered.")]);
    // `tools` exists only in the session's spec: no flag of a job ever carried it. The prompt looks like a flag.
    const job = { prompt: "--tools-only", model: `replay:${path}`, allowedTools: ["Bash"], tools: ["Read", "Grep"] };
    const submitted = await warden(fleet, ["fleet", "submit", "-"], { input: `${JSON.stringify(job)}\n` });
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.trim();
    expect((await settled(id)).state).toBe("completed");
    const logs = jsonLines((await warden(fleet, ["fleet", "logs", id, "--follow"])).stdout);
    const init = logs.find((line) => line.type === "system" && line.subtype === "init") as { tools: string[] };
    expect(init.tools).toEqual(expect.arrayContaining(["Read", "Grep"]));
    expect(init.tools).not.toContain("Bash");
    expect(logs.find((line) => line.type === "result")).toMatchObject({ result: "Only the tools it was offered." });
    // The script's Bash call found no such tool: nothing ran in the clone.
    expect(findInClones(workDirs(), id, "ran.txt")).toBeUndefined();
  }, 120_000);

  it("refuses bad job lines and bypass mode the submitter's settings do not allow, submitting nothing", async () => {
    const bad = await warden(fleet, ["fleet", "submit", "-"], {
      input: `${JSON.stringify({ prompt: "fine" })}\n{"prompt": 3}\nnot json\n`,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("stdin line 2: prompt:");
    expect(bad.stderr).toContain("stdin line 3: not valid JSON");
    const before = await client.zcard("warden:fleet:jobs");
    const bypass = await warden(fleet, ["fleet", "submit", "--permission-mode", "bypassPermissions", "do anything"]);
    expect(bypass.code).toBe(2);
    expect(bypass.stderr).toMatch(/bypassPermissions" refused/);
    expect(await client.zcard("warden:fleet:jobs")).toBe(before);
  });
});

/** What a transcript line is, without ids, times, paths or text. */
function shape(entry: Record<string, unknown>): string {
  const message = entry.message as { role?: string; content?: Array<{ type: string; name?: string }> } | undefined;
  if (!message) return String(entry.type);
  return `${entry.type}:${message.role}:${(message.content ?? []).map((b) => b.name ?? b.type).join(",")}`;
}
