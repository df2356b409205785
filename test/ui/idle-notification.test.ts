// Notification hooks of type idle_prompt: told once the wait after a prompt has passed, not when
// the wait is cancelled by a new prompt.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HookRunner } from "../../src/hooks/hook-runner.js";
import { armIdleNotification } from "../../src/ui/app/use-idle-notification.js";

function runnerLogging(cwd: string, name: string): { hooks: HookRunner; log: string } {
  const log = join(cwd, `${name}.log`);
  const hooks = new HookRunner({
    config: { Notification: [{ matcher: "idle_prompt", hooks: [{ type: "command", command: `cat >> '${log}'` }] }] },
    cwd,
    sessionId: "s-idle",
  });
  return { hooks, log };
}

describe("idle_prompt notifications", () => {
  it("fire once the wait has passed, with the notification type", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-idle-")));
    const { hooks, log } = runnerLogging(cwd, "idle");
    armIdleNotification(hooks, 20);
    await expect.poll(() => existsSync(log) && readFileSync(log, "utf8").length > 0, { timeout: 10_000 }).toBe(true);
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "idle_prompt",
      message: "Warden is waiting for your input",
    });
  });

  it("a cancelled wait tells nobody", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-idle-")));
    const { hooks, log } = runnerLogging(cwd, "cancelled");
    const cancel = armIdleNotification(hooks, 50);
    cancel();
    // A second wait that does fire proves the timers ran; the cancelled one must have left no line.
    const second = runnerLogging(cwd, "second");
    armIdleNotification(second.hooks, 100);
    await expect.poll(() => existsSync(second.log), { timeout: 10_000 }).toBe(true);
    expect(existsSync(log)).toBe(false);
  });
});
