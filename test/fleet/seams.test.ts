// Issue 33: what a fleet job can change, and what its results say. A real redis-server, the built
// CLI's worker with its default options (no --work-dir), jobs replayed by the replay provider.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisServerBinary } from "../helpers/redis-server.js";
import {
  type FleetEnv,
  jsonLines,
  startTestFleet,
  type TestFleet,
  type TestWorker,
  waitFor,
  warden,
} from "./harness.js";

const binary = redisServerBinary();

const toolUse = (id: string, name: string, input: object) => ({ content: [{ type: "tool_use", id, name, input }] });
const say = (text: string) => ({ content: [{ type: "text", text }] });

describe.skipIf(!binary)("fleet jobs change their workspace and report what was refused", () => {
  let tf: TestFleet;
  let fleet: FleetEnv;
  let dir: string;
  let repo: string;
  let worker: TestWorker;

  const script = (name: string, turns: object[]) => tf.script(name, turns);
  const submit = (args: string[]) => tf.submit(args);
  const settled = (id: string) => tf.settled(id);

  beforeAll(async () => {
    // Warden's folder where a user's is, ~/.warden: the default work folder used to be inside it.
    tf = await startTestFleet(binary as string, {
      name: "fleet-seams",
      dotWarden: true,
      repoFile: { name: "greeting.txt", content: "hello world\n" },
      policy: (dir) => ({ repositories: [join(dir, "repo")], modelFiles: [dir] }),
    });
    ({ fleet, dir, repo } = tf);
    // Default options: the work folder is the worker's own choice (it used to be under ~/.warden).
    worker = await tf.addWorker([], { workDir: null });
  }, 60_000);

  afterAll(async () => {
    await tf?.stop();
  });

  it("says so when the queue holds no job yet, and --json stays empty", async () => {
    const text = await warden(fleet, ["fleet", "status"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain("no jobs");
    expect((await warden(fleet, ["fleet", "results"])).stderr).toContain("no jobs");
    const json = await warden(fleet, ["fleet", "status", "--json"]);
    expect(json.stdout + json.stderr).toBe("");
  }, 60_000);

  it("lets a job's session Edit, Write and redirect in its clone under the default work folder; the patch holds all three", async () => {
    expect(worker.workDir).not.toBe("");
    const path = script("edit.jsonl", [
      toolUse("r1", "Read", { file_path: "{{cwd}}/greeting.txt" }),
      toolUse("e1", "Edit", {
        file_path: "{{cwd}}/greeting.txt",
        old_string: "hello world",
        new_string: "hello fleet",
      }),
      toolUse("w1", "Write", { file_path: "{{cwd}}/notes.md", content: "written by a fleet job\n" }),
      toolUse("b1", "Bash", { command: "echo redirected > out.txt" }),
      say("Done."),
    ]);
    const id = await submit([
      "--repo",
      repo,
      "--model",
      `replay:${path}`,
      "--permission-mode",
      "acceptEdits",
      "--allowed-tools",
      "Edit",
      "Write",
      "edit the greeting",
    ]);
    const final = await settled(id);
    expect(final.state).toBe("completed");
    expect(final.refusedCalls).toBeUndefined();
    const [result] = jsonLines((await warden(fleet, ["fleet", "results", id, "--json"])).stdout) as Array<{
      patch: string;
      refusals?: unknown[];
    }>;
    expect(result?.refusals).toBeUndefined();
    expect(result?.patch).toContain("+hello fleet");
    expect(result?.patch).toContain("+written by a fleet job");
    expect(result?.patch).toContain("+redirected");
  }, 120_000);

  it("says in status and results (text and JSON) which calls of a completed job were refused, and why", async () => {
    const path = script("refused.jsonl", [
      toolUse("w1", "Write", { file_path: "{{cwd}}/.git/hooks/pre-commit", content: "#!/bin/sh\nexit 0\n" }),
      toolUse("b1", "Bash", { command: "echo hi > hi.txt" }),
      toolUse("w2", "Write", { file_path: "{{cwd}}/kept.txt", content: "kept\n" }),
      say("I did what I could."),
    ]);
    const id = await submit(["--repo", repo, "--model", `replay:${path}`, "--allowed-tools", "Write", "try things"]);
    const final = await settled(id);
    expect(final.state).toBe("completed");
    expect(final.refusedCalls).toBe(2);

    const statusText = await warden(fleet, ["fleet", "status", id]);
    expect(statusText.stdout).toMatch(new RegExp(`^${id}\\s+completed\\s+\\(2 calls refused\\)`));

    const text = (await warden(fleet, ["fleet", "results", id])).stdout;
    expect(text).toContain(`== ${id} completed, 2 calls refused`);
    expect(text).toMatch(/refused: Write \.git\/hooks\/pre-commit: .*protected/);
    expect(text).toMatch(/refused: Bash echo hi > hi\.txt: /);
    expect(text).toContain("kept.txt");

    const [json] = jsonLines((await warden(fleet, ["fleet", "results", id, "--json"])).stdout) as Array<{
      refusedCalls: number;
      refusals: Array<{ tool: string; target: string; reason: string }>;
    }>;
    expect(json?.refusedCalls).toBe(2);
    expect(json?.refusals.map((r) => r.tool)).toEqual(["Write", "Bash"]);
    expect(json?.refusals[0]?.reason).toMatch(/protected/);
  }, 120_000);

  it("says why a job whose session could not start failed: the session's error, not its subtype", async () => {
    const missing = join(dir, "no-such-script.jsonl");
    const id = await submit(["--repo", repo, "--model", `replay:${missing}`, "go"]);
    const final = await settled(id);
    expect(final.state).toBe("failed");
    expect(final.error).toContain(`replay script ${missing}: no such file`);

    const text = (await warden(fleet, ["fleet", "results", id])).stdout;
    expect(text).toContain(`error: replay script ${missing}: no such file`);
    const [json] = jsonLines((await warden(fleet, ["fleet", "results", id, "--json"])).stdout) as Array<{
      error?: string;
    }>;
    expect(json?.error).toContain("no such file");
  }, 120_000);

  it("exits 1 from results, as from status, when a job asked for is not there", async () => {
    const results = await warden(fleet, ["fleet", "results", "999999"]);
    expect(results.stderr).toContain("no job 999999");
    expect(results.code).toBe(1);
    expect((await warden(fleet, ["fleet", "status", "999999"])).code).toBe(1);
    // Every command alike: 2 says the command was misused, which a job id that names no job is not.
    for (const command of ["cancel", "logs"]) {
      const run = await warden(fleet, ["fleet", command, "999999"]);
      expect(run.stderr).toContain("no fleet job 999999");
      expect(run.code, command).toBe(1);
    }
  }, 60_000);

  it("refuses to start a worker whose work folder lies inside a protected folder", async () => {
    const run = await warden(fleet, ["fleet", "worker", "--work-dir", join(fleet.home, ".warden", "fleet")]);
    expect(fleet.wardenHome).toBe(join(fleet.home, ".warden"));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/inside a protected folder.*pass --work-dir elsewhere/);
  });

  it("takes rule lists as the README writes them: every word up to the next flag, the prompt at the end", async () => {
    const path = script("lists.jsonl", [say("ok")]);
    const readme = await submit([
      "--repo",
      repo,
      "--model",
      `replay:${path}`,
      "--allowed-tools",
      "Read",
      "Edit",
      "Bash(npm test:*)",
      "--max-turns",
      "30",
      "Bump lodash and fix the tests",
    ]);
    const short = await submit(["--model", `replay:${path}`, "--allowed-tools", "Read", "Edit", "Fix the tests"]);
    const commas = await submit(["--model", `replay:${path}`, "--disallowed-tools", "Bash(rm:*),WebFetch", "--", "-x"]);
    const data = async (id: string) =>
      JSON.parse((await tf.client.hget(`bull:warden-fleet:${id}`, "data")) ?? "{}") as Record<string, unknown>;
    expect(await data(readme)).toMatchObject({
      prompt: "Bump lodash and fix the tests",
      allowedTools: ["Read", "Edit", "Bash(npm test:*)"],
      maxTurns: 30,
    });
    expect(await data(short)).toMatchObject({ prompt: "Fix the tests", allowedTools: ["Read", "Edit"] });
    expect(await data(commas)).toMatchObject({ prompt: "-x", disallowedTools: ["Bash(rm:*)", "WebFetch"] });
    // A jobs file's lines carry their own options: a flag beside one would be silently lost.
    const file = join(dir, "jobs.ndjson");
    writeFileSync(file, `${JSON.stringify({ prompt: "p", model: `replay:${path}` })}\n`);
    const mixed = await warden(fleet, ["fleet", "submit", "--allowed-tools", "Edit", "--", file]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--allowed-tools would be ignored/);
    expect((await tf.settledAll([readme, short, commas])).map((final) => final.state)).toEqual([
      "completed",
      "completed",
      "completed",
    ]);
  }, 120_000);

  // Last: it empties Redis under the worker, as a Redis without persistence restarting does.
  it("says a running job's record is gone from Redis when it is, never that another worker took it over", async () => {
    const path = script("gone.jsonl", [
      toolUse("r1", "Read", { file_path: "{{cwd}}/greeting.txt" }),
      { ...say("too late"), delay_ms: 4000 },
    ]);
    const id = await submit(["--repo", repo, "--model", `replay:${path}`, "outlive my record"]);
    await waitFor("the session's first turn in Redis", async () =>
      (await tf.client.llen(`warden:fleet:job:${id}:transcript`)) > 0 ? true : undefined,
    );
    await tf.client.flushall();
    const said = await waitFor("the worker to notice", async () =>
      /job \S+ (is gone|was taken)/.test(worker.stderr()) ? worker.stderr() : undefined,
    );
    expect(said).toContain(`job ${id} is gone from Redis`);
    expect(said).not.toContain("taken over by another worker");
  }, 120_000);
});
