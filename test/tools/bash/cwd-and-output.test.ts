import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyToolResultLimit } from "../../../src/results/limit-result.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { createSession, type Session, text } from "./harness.js";

let session: Session;
beforeEach(() => {
  session = createSession();
});
afterEach(async () => {
  await session.cleanup();
});

describe("Bash: working directory", () => {
  it("carries a cd over to the next call", async () => {
    await session.run("Bash", { command: "mkdir -p 'sub dir/deeper' && cd 'sub dir'" });
    const pwd = await session.run("Bash", { command: "pwd" });
    expect(text(pwd)).toBe(join(session.project, "sub dir"));
    await session.run("Bash", { command: "cd deeper" });
    expect(text(await session.run("Bash", { command: "pwd" }))).toBe(join(session.project, "sub dir", "deeper"));
    expect(session.context.getAppState().bashCwd).toBe(join(session.project, "sub dir", "deeper"));
  });

  it("keeps the directory when the command calls exit after cd", async () => {
    mkdirSync(join(session.project, "a"));
    const result = await session.run("Bash", { command: "cd a && exit 3" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("Exit code 3");
    expect(text(await session.run("Bash", { command: "pwd" }))).toBe(join(session.project, "a"));
  });

  it("does not carry exported variables over (each command is a fresh shell)", async () => {
    await session.run("Bash", { command: "export WARDEN_TEST_VAR=hello" });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a JS template
    expect(text(await session.run("Bash", { command: 'echo "[${WARDEN_TEST_VAR:-unset}]"' }))).toBe("[unset]");
  });

  it("resets to the session directory after a cd outside the working directories", async () => {
    const result = await session.run("Bash", { command: "cd / && pwd" });
    expect(text(result)).toContain("Shell cwd was reset to");
    expect(text(await session.run("Bash", { command: "pwd" }))).toBe(session.project);
  });

  it("falls back to the session directory when the remembered one was deleted", async () => {
    await session.run("Bash", { command: "mkdir gone && cd gone" });
    rmSync(join(session.project, "gone"), { recursive: true });
    const result = await session.run("Bash", { command: "pwd" });
    expect(text(result)).toContain(session.project);
    expect(text(result)).toContain("no longer exists");
  });

  it("refuses to run when even the session directory is gone, saying why", async () => {
    rmSync(session.project, { recursive: true });
    const result = await session.run("Bash", { command: "touch created-somewhere" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain(`the working directory ${session.project} does not exist`);
  });

  it("runs commands with the environment captured at the first call", async () => {
    await session.run("Bash", { command: "true" });
    process.env.WARDEN_LATE_VARIABLE = "late";
    try {
      const result = await session.run("Bash", {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a JS template
        command: 'echo "${WARDEN_LATE_VARIABLE:-absent} $GIT_EDITOR $WARDEN"',
      });
      expect(text(result)).toBe("absent true 1");
    } finally {
      delete process.env.WARDEN_LATE_VARIABLE;
    }
  });
});

describe("Bash: output and exit codes", () => {
  it("captures stdout and stderr together, in order", async () => {
    const result = await session.run("Bash", { command: "echo one; echo two >&2; echo three" });
    expect(text(result)).toBe("one\ntwo\nthree");
    expect(result.is_error).toBeUndefined();
  });

  it("reports a failing command as an error with its exit code", async () => {
    const result = await session.run("Bash", { command: "echo broken >&2; exit 4" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toBe("broken\nExit code 4");
  });

  it("reports grep's exit 1 as no matches, not as a failure", async () => {
    const result = await session.run("Bash", { command: "printf 'a\\nb\\n' | grep zzz" });
    expect(result.is_error).toBeUndefined();
    expect(text(result)).toContain("Exit code 1: No matches found (not an error)");
  });

  it("reports diff's exit 1 as files differ and test's as false", async () => {
    const diff = await session.run("Bash", { command: "printf a > x && printf b > y && diff x y" });
    expect(diff.is_error).toBeUndefined();
    expect(text(diff)).toContain("Files differ");
    const test = await session.run("Bash", { command: "test -e does-not-exist" });
    expect(test.is_error).toBeUndefined();
    expect(text(test)).toContain("Condition is false");
  });

  it("still reports grep's exit 2 (a real error) as a failure", async () => {
    const result = await session.run("Bash", { command: "grep pattern no-such-file" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("Exit code 2");
  });

  it("reports a shell syntax error as a failed command", async () => {
    const result = await session.run("Bash", { command: "if then fi (" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toMatch(/syntax error/);
  });

  it("closes stdin so commands that read input end instead of hanging", async () => {
    const result = await session.run("Bash", { command: 'read -r line; echo "read status $?"; cat; echo done' });
    expect(text(result)).toBe("read status 1\ndone");
  });

  it("gives commands no terminal, so one that opens /dev/tty fails instead of waiting", async () => {
    const result = await session.run("Bash", { command: "cat /dev/tty" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("/dev/tty");
  });

  it("says so when there is no output", async () => {
    expect(text(await session.run("Bash", { command: "true" }))).toBe("(no output)");
  });

  it("reports progress with recent output while a command runs past 2 s", async () => {
    const progress: unknown[] = [];
    const result = await session.run("Bash", { command: "echo first-line; sleep 3; echo last-line" }, (p) =>
      progress.push(p),
    );
    expect(text(result)).toBe("first-line\nlast-line");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ type: "bash_progress", output: "first-line", totalLines: 1 });
  });

  it("returns large output in full; the result limit persists it with a preview", async () => {
    const result = await session.run("Bash", { command: "seq 1 40000" });
    const full = text(result);
    expect(full.split("\n")).toHaveLength(40000);
    expect(full.length).toBeGreaterThan(BashTool.maxResultSizeChars);
    expect(BashTool.maxResultSizeChars).toBe(30_000);

    const limited = await applyToolResultLimit(result, BashTool, session.sessionDir);
    const shown = text(limited);
    expect(shown).toContain("<persisted-output>");
    const savedPath = /(\/\S+tool-results\/\S+)/.exec(shown)?.[1];
    expect(savedPath && existsSync(savedPath)).toBe(true);
    expect(readFileSync(savedPath!, "utf8")).toBe(full);
  });

  it("spills output past a few MB to a file instead of holding it in memory", async () => {
    const result = await session.run("Bash", {
      command: "head -c 6000000 /dev/zero | tr '\\0' 'x'; echo; echo the-end",
    });
    const shown = text(result);
    expect(shown.length).toBeLessThan(200_000);
    // Booleans, not toContain: a failure must not print megabytes.
    expect(shown.startsWith("[Output too large to show in full: 6000009 bytes, 2 lines.")).toBe(true);
    expect(shown.trimEnd().endsWith("x\nthe-end")).toBe(true);
    const path = /saved to (\S+);/.exec(shown)?.[1];
    expect(path).toBeDefined();
    expect(readFileSync(path!, "utf8").length).toBe(6000009);
    expect(realpathSync(path!).startsWith(session.sessionDir)).toBe(true);
  });
});
