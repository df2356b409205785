// Esc while a command's `!`cmd`` lines run: the front ends run them inside the session's
// runBeforePrompt, so the session's interrupt command (what Esc and SIGINT call) stops them as it
// stops a prompt: the running line's whole process group is killed, the lines after it are not run,
// and the text says so in their place. Real bash, a real session engine and its commands.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSessionCommands } from "../../../src/control/session-commands.js";
import { createSession, type SessionEngine } from "../../../src/loop/session.js";
import { createReplayProvider } from "../../../src/providers/replay.js";
import { builtInTools } from "../../../src/tools/registry.js";
import { runCommandShell, shellInterruptedNotice } from "../../../src/tools/skill/shell-marks.js";

let cwd: string;
let session: SessionEngine;

beforeEach(() => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), "warden-shell-interrupt-")));
  // No prompt is sent here; the engine still needs a model.
  writeFileSync(join(cwd, "model.jsonl"), `${JSON.stringify({ content: [{ type: "text", text: "unused" }] })}\n`);
  session = createSession({
    provider: createReplayProvider(join(cwd, "model.jsonl"), { cwd }),
    model: "scripted",
    tools: builtInTools(),
    canUseTool: async () => ({ behavior: "allow" }),
    cwd,
    transcript: false,
    loadMemory: false,
  });
});
afterEach(() => {
  session.close();
  rmSync(cwd, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    // A zombie waiting for its reaper has stopped running.
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("interrupting a command's !`cmd` lines", () => {
  it("kills the running line's process group, skips the rest and says so", { timeout: 60_000 }, async () => {
    const text = [
      "Before: !`echo first-line-ran`",
      // A child of the line's shell, in its process group: killed only if the whole group is.
      "Slow: !`(sleep 30; touch late.txt) & echo $! > child.pid; wait`",
      "After: !`touch after.txt`",
    ].join("\n");
    const commands = createSessionCommands(session);
    const running = session.runBeforePrompt(async (signal) => ({
      text: await runCommandShell(text, {
        contextFor: (abortController) => session.toolUseContext(abortController),
        canUseTool: async () => ({ behavior: "allow" }),
        signal,
        origin: { commandName: "test", invokedBy: "user" },
      }),
      interrupted: signal.aborted,
    }));
    const pidFile = join(cwd, "child.pid");
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the slow line started");
    const child = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(child)).toBe(true);

    commands.interrupt("user");
    const result = await running;

    expect(result.interrupted).toBe(true);
    expect(result.text).toContain("Before: first-line-ran");
    expect(result.text).toMatch(/Slow: [^\n]*\[interrupted\]/);
    expect(result.text).toContain("After: [warden did not run `touch after.txt`: the prompt was interrupted]");
    expect(existsSync(join(cwd, "after.txt"))).toBe(false);
    await until(() => !alive(child), "the line's background child was killed with its group");
    expect(existsSync(join(cwd, "late.txt"))).toBe(false);
    expect(shellInterruptedNotice("/deploy now")).toContain("interrupted while /deploy ran its !`command` lines");
  });

  it("leaves a later preparation alone once the interrupted one is over", async () => {
    const commands = createSessionCommands(session);
    await session.runBeforePrompt(async () => undefined);
    commands.interrupt("user");
    const text = await session.runBeforePrompt((signal) =>
      runCommandShell("Now: !`echo still-runs`", {
        contextFor: (abortController) => session.toolUseContext(abortController),
        canUseTool: async () => ({ behavior: "allow" }),
        signal,
        origin: { commandName: "test", invokedBy: "user" },
      }),
    );
    expect(text).toBe("Now: still-runs");
  });
});
