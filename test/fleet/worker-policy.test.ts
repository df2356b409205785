// Issue 34: whoever can write to Redis gains no more than the worker's own settings grant, and a
// job's session never sees the fleet's credentials. A real redis-server with a password, the
// built CLI's worker with its default options, jobs written straight into the queue.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedJobData } from "../../src/fleet/job-signature.js";
import type { JobSpec } from "../../src/fleet/job-spec.js";
import { redisServerBinary } from "../helpers/redis-server.js";
import {
  type FleetEnv,
  jsonLines,
  type StatusLine,
  startTestFleet,
  type TestFleet,
  type TestWorker,
  warden,
} from "./harness.js";

const binary = redisServerBinary();
const PASSWORD = `pw-${randomBytes(6).toString("hex")}`;
const SECRET = "PRIVATE-KEY-MATERIAL-0123456789";

const toolUse = (id: string, name: string, input: object) => ({ content: [{ type: "tool_use", id, name, input }] });
const say = (text: string) => ({ content: [{ type: "text", text }] });

function gitRepo(path: string, file: string, content: string): void {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, file), content);
  execFileSync("sh", ["-c", "git init -q && git add . && git -c user.email=t@t -c user.name=t commit -qm base"], {
    cwd: path,
  });
}

describe.skipIf(!binary)("a fleet worker obeys its own policy and keeps the fleet's credentials", () => {
  let tf: TestFleet;
  let queue: Queue;
  let fleet: FleetEnv;
  let dir: string;
  let scripts: string;
  let allowedRepo: string;
  let privateRepo: string;
  let key: Buffer;
  let worker: TestWorker;

  const script = (name: string, turns: object[]) => {
    const path = join(scripts, name);
    writeFileSync(path, `${turns.map((t) => JSON.stringify(t)).join("\n")}\n`);
    return path;
  };
  /** Writes a job straight into the queue, as anyone who can reach Redis can. */
  const addJob = async (data: Record<string, unknown>) =>
    String((await queue.add("session", data, { attempts: 1 })).id);
  const signed = (spec: JobSpec) => signedJobData(spec, key);
  const settled = (id: string) => tf.settled(id);
  const events = async (id: string) => (await warden(fleet, ["fleet", "logs", id])).stdout;
  /** The text of every tool result a job's session got. */
  const toolOutputs = async (id: string) =>
    jsonLines(await events(id))
      .filter((event) => event.type === "user")
      .flatMap((event) => ((event.message as { content?: Array<Record<string, unknown>> }).content ?? []) as object[])
      .map((block) => JSON.stringify(block))
      .join("\n");

  beforeAll(async () => {
    // The worker's settings list one repository and one folder of scripts; the rest is the default.
    tf = await startTestFleet(binary as string, {
      name: "fleet-policy",
      dotWarden: true,
      policy: (dir) => ({ repositories: [join(dir, "allowed")], modelFiles: [join(dir, "scripts")] }),
    });
    ({ fleet, dir } = tf);
    // Redis AUTH, as the README asks for: this connection stays authenticated, new ones need it.
    await tf.client.config("SET", "requirepass", PASSWORD);
    queue = new Queue("warden-fleet", { connection: tf.client });
    fleet.redisUrl = `redis://:${PASSWORD}@127.0.0.1:${tf.redis.port}`;
    const home = fleet.home;
    scripts = join(dir, "scripts");
    mkdirSync(scripts);
    allowedRepo = join(dir, "allowed");
    privateRepo = join(dir, "private");
    gitRepo(allowedRepo, "README.md", "allowed\n");
    gitRepo(privateRepo, "secret.txt", `${SECRET}\n`);
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), `${SECRET}\n`, { mode: 0o600 });
    key = Buffer.from(readFileSync(join(fleet.wardenHome as string, "fleet.key"), "utf8").trim());
    // Default options, but the Redis URL also on the command line, as older set-ups passed it; and
    // the key in the environment too, where a session would find it if it were handed on.
    worker = await tf.addWorker(["--redis", fleet.redisUrl], {
      workDir: null,
      env: { WARDEN_FLEET_KEY: key.toString() },
    });
  }, 60_000);

  afterAll(async () => {
    await queue?.close();
    await tf?.stop();
  });

  it("refuses jobs written into Redis that ask for more than the worker's settings grant, and runs one that asks for less", async () => {
    const ok = script("ok.jsonl", [say("fine")]);
    const pwned = join(dir, "pwned");
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [signed({ prompt: "bypass", model: `replay:${ok}`, permissionMode: "bypassPermissions" }), /bypassPermissions/],
      [
        signed({ prompt: "steal", model: `replay:${join(fleet.home, ".ssh", "id_rsa")}` }),
        /reads a file of the worker's disk/,
      ],
      [signed({ prompt: "relative", model: "replay:../home/.ssh/id_rsa" }), /reads a file of the worker's disk/],
      [signed({ prompt: "clone", model: `replay:${ok}`, repo: privateRepo }), /fleet\.worker\.repositories/],
      [
        signed({ prompt: "clone", model: `replay:${ok}`, repo: `file://${privateRepo}` }),
        /fleet\.worker\.repositories/,
      ],
      [signed({ prompt: "helper", model: `replay:${ok}`, repo: `ext::sh -c touch% ${pwned}` }), /remote helper/],
      [
        signed({ prompt: "read", model: `replay:${ok}`, allowedTools: [`Read(/${fleet.home}/.ssh/**)`] }),
        /outside the job's workspace/,
      ],
      [signed({ prompt: "shell", model: `replay:${ok}`, allowedTools: ["Bash"] }), /runs anything/],
      // Every problem of a job is named, not only the first.
      [
        signed({ prompt: "both", model: `replay:${join(fleet.home, ".ssh", "id_rsa")}`, repo: privateRepo }),
        /fleet\.worker\.repositories.*; model .*reads a file of the worker's disk/,
      ],
      // Not a spec a submitter can sign (the schema refuses it): never reaches git as an option.
      [{ prompt: "option", model: `replay:${ok}`, repo: `--upload-pack=touch ${pwned}` }, /must not start with "-"/],
    ];
    const ids = [];
    for (const [data] of refused) ids.push(await addJob(data));
    const allowed = await addJob(signed({ prompt: "allowed", model: `replay:${ok}`, repo: allowedRepo }));
    const finals = await tf.settledAll(ids);
    for (const [index, id] of ids.entries()) {
      const final = finals[index] as StatusLine;
      expect(final.state, JSON.stringify(refused[index]?.[0])).toBe("failed");
      expect(final.error).toMatch(refused[index]?.[1] as RegExp);
      // Refused before any session or clone: nothing ran.
      const said = await events(id);
      expect(said).toContain('"event":"refused"');
      expect(said).not.toContain('"event":"started"');
      expect(said).not.toContain(SECRET);
    }
    expect(existsSync(pwned)).toBe(false);
    expect((await settled(allowed)).state).toBe("completed");
    // The text status names the reason too.
    const text = await warden(fleet, ["fleet", "status", ids[0] as string]);
    expect(text.stdout).toMatch(/failed .*refused by worker .*bypassPermissions/);
  }, 120_000);

  it("runs only jobs signed with the fleet's job key", async () => {
    const ok = script("signed.jsonl", [say("signed")]);
    const spec: JobSpec = { prompt: "hello", model: `replay:${ok}` };
    const unsigned = await addJob({ ...spec });
    const otherKey = await addJob(signedJobData(spec, randomBytes(32)));
    const tampered = await addJob({ ...signed(spec), prompt: "something else" });
    const good = await addJob(signed(spec));
    const [u, o, t, g] = await tf.settledAll([unsigned, otherKey, tampered, good]);
    expect(u?.error).toMatch(/not signed/);
    expect(o?.error).toMatch(/signature does not match/);
    expect(t?.error).toMatch(/signature does not match/);
    expect(g?.state).toBe("completed");
  }, 120_000);

  it("refuses a signed job queued again under an id that names a path or holds control characters", async () => {
    // The signature does not name the id, so a copy of any signed job can be queued under an id of
    // the writer's choosing; the id names the job's folder (`job-<id>-<run>`, removed at its end).
    const ok = script("id.jsonl", [say("ran")]);
    const data = signed({ prompt: "hello \u001b]0;pwned\u0007", model: `replay:${ok}`, repo: allowedRepo });
    const victim = join(dir, "victim-1");
    mkdirSync(victim);
    writeFileSync(join(victim, "keep.txt"), "mine\n");
    const traversal = `${"../".repeat(40)}${dir.slice(1)}/victim`;
    const escapes = "\u001b[2J\u001b]0;owned\u0007";
    for (const jobId of [traversal, escapes]) await queue.add("session", data, { attempts: 1, jobId });
    const finals = await tf.settledAll([traversal, escapes]);
    for (const final of finals) {
      expect(final?.state).toBe("failed");
      expect(final?.error).toMatch(/its id .* is not one the fleet makes/);
    }
    expect(readFileSync(join(victim, "keep.txt"), "utf8")).toBe("mine\n");
    expect(await events(traversal)).not.toContain('"event":"started"');
    // What reaches the operator's terminal carries no escape sequence from the queue.
    const text = await warden(fleet, ["fleet", "status"]);
    expect(text.stdout).toContain("\\u001b");
    expect(text.stdout).not.toContain("\u001b");
    expect(worker.stderr()).not.toContain("\u001b");
  }, 120_000);

  it("never writes a transcript where a session id set in the job's record in Redis points", async () => {
    // The record (`warden:fleet:job:<id>`) is not signed: whoever writes Redis can name a session
    // there before a worker takes the job, and its transcript lines are written to that session's file.
    const ok = script("resume.jsonl", [say("ran")]);
    const jobId = "resume-walk-1";
    const target = join(dir, "pwned");
    await tf.client.hset(`warden:fleet:job:${jobId}`, "sessionId", `${"../".repeat(40)}${target.slice(1)}`);
    await tf.client.rpush(`warden:fleet:job:${jobId}:transcript`, '{"type":"session","written":"by whoever"}');
    await queue.add("session", signed({ prompt: "resume", model: `replay:${ok}`, repo: allowedRepo }), {
      attempts: 1,
      jobId,
    });
    const final = await tf.settled(jobId);
    expect(existsSync(`${target}.jsonl`)).toBe(false);
    expect(final.state).toBe("failed");
    expect(final.error).toMatch(/names a session .* no session makes/);
  }, 120_000);

  it("gives a job's session neither the Redis URL nor the job key, in its environment or in ps; its clone is private", async () => {
    expect(worker.stderr()).toMatch(/--redis redis:\/\/:\*\*\*@.* puts the password on the command line/);
    const path = script("env.jsonl", [
      toolUse("b1", "Bash", { command: 'echo "url=$WARDEN_REDIS_URL"' }),
      // Only the lines naming warden: a busy machine's whole `ps` is too big to come back whole.
      toolUse("b2", "Bash", { command: "ps -eo args= | grep -F warden" }),
      toolUse("b3", "Bash", { command: "printenv" }),
      toolUse("b4", "Bash", { command: "ls -ld ." }),
      say("looked"),
    ]);
    const submitted = await warden(fleet, [
      "fleet",
      "submit",
      ...["--model", `replay:${path}`, "--repo", allowedRepo, "--allowed-tools", "Bash(printenv)", "--"],
      "look around",
    ]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.trim();
    expect((await settled(id)).state).toBe("completed");
    const outputs = await toolOutputs(id);
    expect(outputs).toContain(`"tool_use_id":"b1","content":"url="`);
    expect(outputs).toContain("warden fleet worker");
    expect(outputs).toContain(`HOME=${fleet.home}`);
    expect(outputs).not.toMatch(/WARDEN_REDIS_URL=|WARDEN_FLEET_KEY=/);
    expect(outputs).not.toContain(PASSWORD);
    expect(outputs).not.toContain(key.toString());
    expect(outputs).toMatch(/drwx------/);
    expect(statSync(worker.workDir).mode & 0o777).toBe(0o700);
  }, 120_000);
});
