// `warden fleet SUB --help`, through the built CLI: every subcommand answers --help with the
// fleet's usage and does nothing else (no Redis, no job key made), as `warden fleet --help` does.
import { existsSync } from "node:fs";
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
    const env = { WARDEN_REDIS_URL: "redis://127.0.0.1:1", WARDEN_FLEET_REDIS_TIMEOUT_MS: "200", WARDEN_FLEET_KEY: "k".repeat(44) };
    const run = await runCli(["fleet", "submit", "--", "--help"], { home, env });
    expect(run.stdout).not.toContain("warden fleet submit [PROMPT");
    expect(run.stderr).toContain("cannot reach Redis");
  });
});
