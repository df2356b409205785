// `warden permissions check` through the real binary: its exit code and streams, with --cwd's
// settings in force. Everything else about the command is tested in process, on the same code path
// (check-command.test.ts).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/built.js";
import { checkProject as project } from "./check-in-process.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function warden(args: string[], home: string, input?: string): Promise<Run> {
  const child = spawn(process.execPath, [BUILT_CLI, "permissions", ...args], {
    cwd: root,
    env: {
      ...process.env,
      HOME: home,
      WARDEN_HOME: join(home, ".warden"),
      WARDEN_MANAGED_SETTINGS: join(home, "policy.json"),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.stdin.end(input ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("warden permissions check", () => {
  it("prints one decision line naming the rule and its source, with --cwd's settings in force", async () => {
    const { home, cwd } = project();
    const run = await warden(
      ["check", "Read", JSON.stringify({ file_path: join(cwd, "secret", "k") }), "--cwd", cwd],
      home,
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      behavior: "deny",
      rule: "Read(./secret/**)",
      source: "projectSettings",
      reason: expect.stringContaining("denied"),
    });
  });
});
