// `warden fleet` usage through the built CLI, with no Redis: every subcommand answers --help with
// the fleet's usage and does nothing else (no job key made), and submit refuses a job that could
// never start before it connects.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../loop/helpers.js";
import { runCli } from "./run-cli.js";

describe("warden fleet SUB --help", () => {
  for (const sub of ["submit", "worker", "status", "logs", "cancel", "results", "key", "dashboard"]) {
    it(`${sub} --help prints the usage, exits 0 and touches nothing`, async () => {
      const home = tempDir("warden-fleet-help-");
      // A Redis port nobody listens on: a subcommand that tried to connect would fail, not print.
      const env = { WARDEN_REDIS_URL: "redis://127.0.0.1:1", WARDEN_FLEET_REDIS_TIMEOUT_MS: "200" };
      for (const flag of ["--help", "-h"]) {
        const run = await runCli(["fleet", sub, flag], { home, env });
        expect(run.stderr, flag).toBe("");
        expect(run.code, flag).toBe(0);
        expect(run.stdout, flag).toContain("warden fleet submit [PROMPT");
      }
      expect(existsSync(join(home, ".warden", "fleet.key"))).toBe(false);
    });
  }

  it("a prompt after -- may still be the word --help", async () => {
    const home = tempDir("warden-fleet-help-");
    const env = {
      WARDEN_REDIS_URL: "redis://127.0.0.1:1",
      WARDEN_FLEET_REDIS_TIMEOUT_MS: "200",
      WARDEN_FLEET_KEY: "k".repeat(44),
    };
    const run = await runCli(["fleet", "submit", "--", "--help"], { home, env });
    expect(run.stdout).not.toContain("warden fleet submit [PROMPT");
    expect(run.stderr).toContain("cannot reach Redis");
  });
});

describe("warden fleet submit refuses a model no provider takes, before it connects", () => {
  it("names the provider and the known ones, with the line of a jobs file; exit 2", async () => {
    const home = tempDir("warden-fleet-model-");
    const env = { WARDEN_REDIS_URL: "redis://127.0.0.1:1", WARDEN_FLEET_REDIS_TIMEOUT_MS: "200" };
    const flag = await runCli(["fleet", "submit", "--model", "bogus:thing", "do it"], { home, env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('submit: model: unknown provider "bogus" (known: anthropic, openai,');
    expect(flag.stderr).not.toContain("cannot reach Redis");
    const jobs = join(home, "jobs.ndjson");
    writeFileSync(
      jobs,
      '{"prompt":"a","model":"anthropic:claude-sonnet-4-6"}\n{"prompt":"b","model":"openia:gpt-4.1"}\n',
    );
    const file = await runCli(["fleet", "submit", jobs], { home, env });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`no job was submitted:\n  ${jobs} line 2: model: unknown provider "openia"`);
  });
});

describe("warden fleet submit refuses a rule that does not parse, before it connects", () => {
  // Every worker refused such a job, so it used to be queued only to fail there.
  it("names the rule and why, from a flag and from a jobs file's line; exit 2", async () => {
    const home = tempDir("warden-fleet-rule-");
    const env = { WARDEN_REDIS_URL: "redis://127.0.0.1:1", WARDEN_FLEET_REDIS_TIMEOUT_MS: "200" };
    const flag = await runCli(["fleet", "submit", "--allowed-tools", "Bash((", "do it"], { home, env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('submit: allowedTools: "Bash((" is not a rule ("Bash((" must end with ")")');
    expect(flag.stderr).not.toContain("cannot reach Redis");
    const jobs = join(home, "jobs.ndjson");
    writeFileSync(jobs, '{"prompt":"a","allowedTools":["Edit"]}\n{"prompt":"b","disallowedTools":["Read(x"]}\n');
    const file = await runCli(["fleet", "submit", jobs], { home, env });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`no job was submitted:\n  ${jobs} line 2: disallowedTools: "Read(x" is not a rule`);
  });
});

describe("warden fleet submit with a local repository, before it connects", () => {
  const env = { WARDEN_REDIS_URL: "redis://127.0.0.1:1", WARDEN_FLEET_REDIS_TIMEOUT_MS: "200" };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });

  it("refuses a folder a worker could not clone: not a repository, or a folder inside one; exit 2", async () => {
    const home = tempDir("warden-fleet-local-");
    const plain = join(home, "plain");
    mkdirSync(plain);
    const notRepo = await runCli(["fleet", "submit", "--repo", plain, "do it"], { home, env });
    expect(notRepo.code).toBe(2);
    expect(notRepo.stderr).toContain(`repo ${plain}: not a git repository`);
    const repo = join(home, "repo");
    mkdirSync(join(repo, "sub"), { recursive: true });
    git(repo, "init", "-q");
    const inside = await runCli(["fleet", "submit", "--repo", join(repo, "sub"), "do it"], { home, env });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain("a folder inside a repository; name the repository's top folder");
  });

  it("says that uncommitted changes will not reach the job", async () => {
    const home = tempDir("warden-fleet-dirty-");
    const repo = join(home, "repo");
    mkdirSync(repo);
    writeFileSync(join(repo, "a.txt"), "one\n");
    git(repo, "init", "-q");
    git(repo, "add", ".");
    git(repo, "commit", "-qm", "one");
    const clean = await runCli(["fleet", "submit", "--repo", repo, "do it"], { home, env });
    expect(clean.stderr).not.toContain("uncommitted");
    writeFileSync(join(repo, "a.txt"), "two\n");
    const dirty = await runCli(["fleet", "submit", "--repo", repo, "do it"], { home, env });
    expect(dirty.stderr).toContain(`${repo} has 1 uncommitted change(s); a worker clones its last commit`);
  });
});
