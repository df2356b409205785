import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { needsCwdCapture } from "../../../src/tools/bash/cwd-capture.js";
import { createSession, type Session, text } from "./harness.js";

const bash = { shellPath: "/bin/bash", env: {} };

describe("Bash: which commands need their final directory recorded", () => {
  it("skips the recording for commands whose text cannot move the shell", () => {
    for (const command of [
      "sleep 1",
      "git status",
      "ls -la src",
      "npm test -- --run",
      "grep -rn 'a b' src | head -5",
      "./run.sh",
      "cat a.txt",
    ]) {
      expect(needsCwdCapture(command, bash), command).toBe(false);
    }
  });

  it("records for cd, pushd, popd and for code the text does not show", () => {
    for (const command of [
      "cd sub",
      "make && cd out",
      "pushd x",
      "popd",
      "eval x",
      "source env.sh",
      ". env.sh",
      "f() { cd x; }; f",
    ]) {
      expect(needsCwdCapture(command, bash), command).toBe(true);
    }
  });

  it("records when quotes, backslashes, expansions, braces or globs could spell cd", () => {
    for (const command of [
      "c'd' sub",
      '"cd" sub',
      "\\cd sub",
      "$X sub",
      "`echo cd` sub",
      "{c,}d sub",
      "c? sub",
      "[c]d sub",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a JS template
      "${X} sub",
    ]) {
      expect(needsCwdCapture(command, bash), command).toBe(true);
    }
  });

  it("always records for zsh or when BASH_ENV runs start-up code", () => {
    expect(needsCwdCapture("ls", { shellPath: "/usr/bin/zsh", env: {} })).toBe(true);
    expect(needsCwdCapture("ls", { shellPath: "/bin/bash", env: { BASH_ENV: "/etc/bashenv" } })).toBe(true);
  });
});

describe("Bash: commands run without the recording", () => {
  let session: Session;
  beforeEach(() => {
    session = createSession();
  });
  afterEach(async () => {
    await session.cleanup();
  });

  it("carries over a cd spelled with quotes", async () => {
    mkdirSync(join(session.project, "sub"));
    await session.run("Bash", { command: "c'd' sub" });
    expect(text(await session.run("Bash", { command: "pwd" }))).toBe(join(session.project, "sub"));
  });

  it("lets a plain command replace the shell instead of running under a waiting one", async () => {
    const result = await session.run("Bash", { command: "grep PPid /proc/self/status" });
    expect(text(result)).toBe(`PPid:\t${process.pid}`);
  });

  it("reports a program that dies of a signal with bash's exit code, 128 + the signal", async () => {
    const result = await session.run("Bash", { command: "perl -e 'kill ABRT => 0'" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("Exit code 134");
    expect(text(result)).toContain("signal SIGABRT");
  });

  it("still fails a syntax error with exit 2", async () => {
    const result = await session.run("Bash", { command: "echo ok; if then" });
    expect(result.is_error).toBe(true);
    expect(text(result)).toMatch(/syntax error/);
    expect(text(result)).toContain("Exit code 2");
    expect(text(result)).toContain("`echo ok; if then'");
    expect(text(result)).not.toContain("exec 2>&1");
  });
});
