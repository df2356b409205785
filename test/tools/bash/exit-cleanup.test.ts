import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isProcessAlive } from "../../../src/tools/bash/process-group.js";

describe("Warden exiting", () => {
  it("kills what its commands left running: foreground leftovers and background tasks", () => {
    const script = join(import.meta.dirname, "fixtures", "leave-processes.ts");
    const output = execFileSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 60_000 });
    const { foreground, background } = JSON.parse(output.trim().split("\n").pop() ?? "{}") as Record<string, string>;
    const foregroundPid = Number(/^(\d+)/.exec(foreground ?? "")?.[1]);
    const backgroundPid = Number(background);
    expect(foreground).toContain("left processes running in the background");
    expect(foregroundPid).toBeGreaterThan(0);
    expect(backgroundPid).toBeGreaterThan(0);
    expect(isProcessAlive(foregroundPid)).toBe(false);
    expect(isProcessAlive(backgroundPid)).toBe(false);
  });
});
