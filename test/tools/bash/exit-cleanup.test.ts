import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isProcessAlive } from "../../../src/process/process-group.js";
import { builtFixture } from "../../helpers/built.js";

/** The pids still alive once they all died or the time ran out. */
async function goneWithin(pids: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = pids.filter(isProcessAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    alive = alive.filter(isProcessAlive);
  }
  return alive;
}

describe("Warden exiting", () => {
  it("kills what its commands left running: foreground leftovers and background tasks", async () => {
    const script = builtFixture("tools/bash/fixtures/leave-processes.ts");
    const output = execFileSync(process.execPath, [script], { encoding: "utf8", timeout: 60_000 });
    const { foreground, background } = JSON.parse(output.trim().split("\n").pop() ?? "{}") as Record<string, string>;
    const foregroundPid = Number(/^(\d+)/.exec(foreground ?? "")?.[1]);
    const backgroundPid = Number(background);
    expect(foreground).toContain("left processes running in the background");
    expect(foregroundPid).toBeGreaterThan(0);
    expect(backgroundPid).toBeGreaterThan(0);
    // SIGKILL is sent as Warden exits; give the kernel a moment to finish the processes off.
    expect(await goneWithin([foregroundPid, backgroundPid], 5_000)).toEqual([]);
  });
});
