// Children started through the orphan guard's gate are the program itself (same pid, same group),
// and a program that cannot be found still fails as spawn() reports it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { spawnGuarded } from "../../src/process/guarded-spawn.js";
import { tempDir } from "../loop/helpers.js";

function waitForExit(child: ReturnType<typeof spawnGuarded>): Promise<number | null> {
  return new Promise((resolve) => child.once("close", (code) => resolve(code)));
}

describe("spawnGuarded", () => {
  it("runs the program in the gate's place: its pid, its arguments, its stdio", async () => {
    const child = spawnGuarded("sh", ["-c", 'echo "$$ $0 $1"', "prog", "first arg"], {
      cwd: tempDir(),
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
    expect(await waitForExit(child)).toBe(0);
    expect(out.trim()).toBe(`${child.pid} prog first arg`);
  });

  it("leads its own process group when detached, and the gate's descriptor is closed", async () => {
    const child = spawnGuarded("sleep", ["30"], {
      cwd: tempDir(),
      env: process.env,
      stdio: ["ignore", "ignore", "ignore"],
      detached: true,
    });
    const pid = child.pid as number;
    // Until exec, the pid runs /bin/sh; wait for the program to take its place.
    let cmdline = "";
    for (let i = 0; i < 200 && !cmdline.startsWith("sleep"); i++) {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmdline.startsWith("sleep")) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(cmdline.split("\0").slice(0, 2)).toEqual(["sleep", "30"]);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
    expect(pgid).toBe(pid);
    expect(() => readFileSync(`/proc/${pid}/fd/3`)).toThrow();
    process.kill(-pid, "SIGKILL");
    await waitForExit(child);
  });

  it("reports a program that does not exist as spawn's own ENOENT error", async () => {
    const child = spawnGuarded("warden-no-such-program", [], {
      cwd: tempDir(),
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once("error", resolve));
    expect(error.code).toBe("ENOENT");
  });
});
